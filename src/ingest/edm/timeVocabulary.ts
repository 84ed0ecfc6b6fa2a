/**
 * Dates of a record as values of the DDB time vocabulary (the `time_fct`
 * facet, spec 2.4) and as the day numbers of the `begin_time` / `end_time`
 * index fields of `view`.
 *
 * The vocabulary (DDB "Zeitvokabular", http://ddb.vocnet.org/zeitvokabular/)
 * gives every century AD a code `time_6CC00` (CC = 01..21) and divides some:
 * - 11th to 17th century in halves: `time_6CC05` (years 1-50), `time_6CC45` (51-100);
 * - 18th and 19th century in quarters: `_07` (1-25), `_25` (26-50), `_47` (51-75), `_75` (76-100);
 * - 20th century in decades `time_62010` .. `time_62090`, and `time_62095` for 1991-2000;
 * - 21st century in decades, of which the 2014 vocabulary has `time_62110` (2001-2010)
 *   and `time_62120` (2011-2020); later decades get only the century code.
 * A century runs from year 01 to year 00 (the 19th is 1801-1900). The real package
 * 4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22 dates an object 1864-1877 and has exactly
 * time_61900, time_61947, time_61975: the century, then each part the range touches.
 * Years BC and geological periods are not derived (their codes do not follow a rule).
 *
 * Day numbers: the same package has begin_time 680449 for 1864-01-01 and end_time
 * 685562 for 1877-12-31: days counted from 0001-01-01 of the Julian calendar as day 1,
 * with the Gregorian calendar from 1582-10-15 on (the default calendar of Java, in
 * which the DDB is written).
 */

export interface YearRange {
  from: number;
  to: number;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** The parts of century `c` (1-based) as [first year offset, last year offset, code suffix]. */
export function centuryParts(c: number): Array<[number, number, string]> {
  if (c >= 11 && c <= 17)
    return [
      [1, 50, '05'],
      [51, 100, '45'],
    ];
  if (c === 18 || c === 19)
    return [
      [1, 25, '07'],
      [26, 50, '25'],
      [51, 75, '47'],
      [76, 100, '75'],
    ];
  if (c === 20) {
    return Array.from({ length: 10 }, (_, k): [number, number, string] => [k * 10 + 1, k * 10 + 10, k === 9 ? '95' : `${k + 1}0`]);
  }
  if (c === 21)
    return [
      [1, 10, '10'],
      [11, 20, '20'],
    ];
  return [];
}

/** The time vocabulary codes a range of years AD touches: per century, its code, then its parts. */
export function timeCodes(range: YearRange): string[] {
  const from = Math.max(1, range.from);
  const to = Math.min(2100, range.to);
  const codes: string[] = [];
  for (let c = Math.ceil(from / 100); c <= Math.ceil(to / 100); c++) {
    const base = (c - 1) * 100;
    codes.push(`time_6${pad2(c)}00`);
    for (const [first, last, suffix] of centuryParts(c)) {
      if (base + first <= to && base + last >= from) codes.push(`time_6${pad2(c)}${suffix}`);
    }
  }
  return codes;
}

const ORDINAL_CENTURY = /\b(\d{1,2})\s*(?:\.\s*(?:jahrhundert|jh\b\.?)|(?:st|nd|rd|th)\s+century)/i;
const YEAR = /(?<!\d)(\d{3,4})(?!\d)/g;
const BEFORE_CHRIST = /\b(?:v\.\s*chr|b\.?\s*c\.?(?:e\.?)?\b)/i;

/**
 * The years a free-text date names, or undefined. Forms seen in real records: `1880`,
 * `1862-1888`, `ca. 1890/1930`, `vor 1924`, `um 1540`, `1974-05-03`, `18.05.1974`,
 * `18. Jahrhundert`, `2. Hälfte 17. Jahrhundert`, `17th century`. A century is the
 * whole century (a "2. Hälfte" or "Ende" is not narrowed); otherwise every year of 3 or
 * 4 digits counts and the range runs from the smallest to the largest. Qualifiers such
 * as "vor" (before) or "ca." are not interpreted: the year named is taken. Dates BC
 * ("v. Chr.", "BC") give nothing, since the vocabulary's BC codes follow no rule.
 */
export function yearRange(text: string): YearRange | undefined {
  if (BEFORE_CHRIST.test(text)) return undefined;
  const century = ORDINAL_CENTURY.exec(text);
  if (century) {
    const c = Number(century[1]);
    if (c >= 1 && c <= 21) return { from: (c - 1) * 100 + 1, to: c * 100 };
  }
  const years = [...text.matchAll(YEAR)].map((m) => Number(m[1])).filter((y) => y >= 1 && y <= 2100);
  if (years.length === 0) return undefined;
  return { from: Math.min(...years), to: Math.max(...years) };
}

function julianDayNumber(year: number, month: number, day: number, gregorian: boolean): number {
  const a = Math.floor((14 - month) / 12);
  const y = year + 4800 - a;
  const m = month + 12 * a - 3;
  const common = day + Math.floor((153 * m + 2) / 5) + 365 * y + Math.floor(y / 4);
  return gregorian ? common - Math.floor(y / 100) + Math.floor(y / 400) - 32045 : common - 32083;
}

const JULIAN_DAY_OF_YEAR_ONE = julianDayNumber(1, 1, 1, false);

/** The DDB day number of a date (see the header): 0001-01-01 Julian is 1. */
export function dayNumber(year: number, month: number, day: number): number {
  const gregorian = year > 1582 || (year === 1582 && (month > 10 || (month === 10 && day >= 15)));
  return julianDayNumber(year, month, day, gregorian) - JULIAN_DAY_OF_YEAR_ONE + 1;
}
