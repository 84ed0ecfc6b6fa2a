/**
 * The date range of the results page (docs/pages.md "Date range"): `from` and `to`, years
 * 1 to 2100, as a filter on the items' `begin_time` / `end_time` day numbers (an item is in
 * the range when its dates overlap it), and the histogram beside the results, drawn on the
 * server from the `time_fct` facet (the DDB time vocabulary: centuries, their halves,
 * quarters or decades; src/ingest/edm/timeVocabulary.ts).
 */
import type { QueryNode } from '../query/ast.js';
import type { FacetCounts } from '../search/engine/types.js';
import { centuryParts, dayNumber } from '../ingest/edm/timeVocabulary.js';

export const FIRST_YEAR = 1;
export const LAST_YEAR = 2100;

export interface YearSpan {
  from?: number | undefined;
  to?: number | undefined;
}

/** A year of the range from its parameter: undefined when absent or empty; null when not a year of ours. */
export function readYear(value: string | undefined): number | undefined | null {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (!/^[0-9]{1,4}$/.test(v)) return null;
  const year = Number(v);
  return year >= FIRST_YEAR && year <= LAST_YEAR ? year : null;
}

/** The engine's query for the range: items whose dates overlap it (begin ≤ its end, end ≥ its start). */
export function rangeQuery(span: YearSpan): QueryNode<string> | undefined {
  const parts: QueryNode<string>[] = [];
  if (span.to !== undefined)
    parts.push({
      kind: 'range',
      field: 'begin_time',
      lower: null,
      upper: String(dayNumber(span.to, 12, 31)),
      includeLower: true,
      includeUpper: true,
    });
  if (span.from !== undefined)
    parts.push({
      kind: 'range',
      field: 'end_time',
      lower: String(dayNumber(span.from, 1, 1)),
      upper: null,
      includeLower: true,
      includeUpper: true,
    });
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : { kind: 'and', children: parts };
}

/** How a span reads: `1801–1900`, `ab 1801`/`from 1801`, `bis 1900`/`to 1900`. */
export function spanLabel(span: YearSpan, lang: 'de' | 'en'): string {
  if (span.from !== undefined && span.to !== undefined) return span.from === span.to ? String(span.from) : `${span.from}–${span.to}`;
  if (span.from !== undefined) return `${lang === 'de' ? 'ab' : 'from'} ${span.from}`;
  if (span.to !== undefined) return `${lang === 'de' ? 'bis' : 'to'} ${span.to}`;
  return '';
}

export interface Bar {
  from: number;
  to: number;
  count: number;
}

const CODE = /^time_6(\d\d)(\d\d)$/;
const pad2 = (n: number): string => String(n).padStart(2, '0');
const centuryOf = (year: number): number => Math.ceil(year / 100);

/**
 * The bars of the histogram for the hits' `time_fct` counts: one per century from the first
 * to the last that has items (empty ones between them too, so the time axis is true), within
 * the range when one is set; when the hits (or the range) lie inside one century that the
 * vocabulary divides, one bar per part of it instead (halves, quarters or decades). An item counts in every bar its dates touch.
 */
export function histogramBars(facet: FacetCounts | undefined, span: YearSpan): Bar[] {
  const counts = new Map<string, number>();
  for (const v of facet?.values ?? []) counts.set(v.value, v.count);
  const centuries: number[] = [];
  for (const code of counts.keys()) {
    const m = CODE.exec(code);
    if (m === null || m[2] !== '00') continue;
    const c = Number(m[1]);
    if (c >= 1 && c <= 21) centuries.push(c);
  }
  if (centuries.length === 0) return [];
  let lo = Math.min(...centuries);
  let hi = Math.max(...centuries);
  if (span.from !== undefined) lo = Math.max(lo, centuryOf(span.from));
  if (span.to !== undefined) hi = Math.min(hi, centuryOf(span.to));
  if (lo > hi) return [];
  if (lo === hi && centuryParts(lo).length > 0) {
    const base = (lo - 1) * 100;
    return centuryParts(lo)
      .map(([first, last, suffix]) => ({ from: base + first, to: base + last, count: counts.get(`time_6${pad2(lo)}${suffix}`) ?? 0 }))
      .filter((b) => b.to >= (span.from ?? FIRST_YEAR) && b.from <= (span.to ?? LAST_YEAR));
  }
  const bars: Bar[] = [];
  for (let c = lo; c <= hi; c++) bars.push({ from: (c - 1) * 100 + 1, to: c * 100, count: counts.get(`time_6${pad2(c)}00`) ?? 0 });
  return bars;
}
