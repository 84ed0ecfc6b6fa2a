/**
 * "More like this" (docs/search.md "More like this"): the items that share a word of an
 * item's text fields or a value of its facets, the item itself left out, by relevance.
 * Built on the engine's public calls: the item's stored fields (a search for its id with
 * `fields: true`), then a relevance search for any of its terms. GET /search/mlt
 * (src/http/routes/searchMlt.ts) and the item page's list of similar items
 * (src/web/moreLikeThisView.ts) both ask it here, so they find the same items.
 */
import { and, or, ALL, type QueryNode } from '../query/ast.js';
import { tokens } from './engine/fold.js';
import type { EngineAnswer, EngineSearch, StoredValue } from './indexHost.js';

/** Text fields of an item whose words an item can be compared by: those the engine keeps the source of. */
export const MLT_TEXT_FIELDS = ['title', 'subtitle', 'keywords', 'affiliate', 'place', 'provider'] as const;
/** Without `fields`: what the OpenAPI example compares by (place, title) and the people and keywords. */
export const MLT_DEFAULT_FIELDS = ['title', 'place', 'affiliate', 'keywords'] as const;
/** Terms of the source item a comparison uses at most (Solr's mlt.maxqt default). */
export const MLT_MAX_TERMS = 25;
/**
 * Words in more than this share of the items, and in more than MLT_COMMON_FLOOR of them, are
 * left out (Solr's mlt.maxdfpct, as a fraction; docs/decisions.md "More like this"): they say
 * little about likeness, and cost the most. A word in half the items (`über` in the bench's
 * titles) made the comparison a union of half the index.
 */
export const MLT_MAX_DOC_SHARE = 0.05;
/**
 * A word in fewer items than this always counts: a union of that many is cheap, and in a
 * small collection (the demo's 1,001 items) every word of an item may be in 5 % of them.
 */
export const MLT_COMMON_FLOOR = 10_000;

/** When a word is too common to compare by: in more than `share` of the items and more than `floor` of them. */
export interface CommonWords {
  share: number;
  floor: number;
}

/** Where a text field's words come from among an item's stored fields (itemDocument.ts builds the field from it). */
const TEXT_SOURCE: Record<(typeof MLT_TEXT_FIELDS)[number], string> = {
  title: 'title',
  subtitle: 'subtitle',
  keywords: 'keywords_fct',
  affiliate: 'affiliate_fct',
  place: 'place_fct',
  provider: 'provider_fct',
};

const values = (v: StoredValue | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [String(v)]);

/**
 * The clauses of the comparison: each distinct word of a text field (a term on that field),
 * each value of a facet (an exact value), in the order of `fields`, at most MLT_MAX_TERMS.
 */
export function mltClauses(stored: Record<string, StoredValue>, fields: readonly string[]): QueryNode<string>[] {
  const clauses: QueryNode<string>[] = [];
  const seen = new Set<string>();
  for (const field of fields) {
    const source = TEXT_SOURCE[field as keyof typeof TEXT_SOURCE];
    const terms = source !== undefined ? values(stored[source]).flatMap((v) => tokens(v)) : values(stored[field]);
    for (const text of terms) {
      const key = `${field}\u0000${text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      clauses.push({ kind: 'term', field, text });
      if (clauses.length === MLT_MAX_TERMS) return clauses;
    }
  }
  return clauses;
}

export interface MltRequest {
  id: string;
  /** Text fields and facets to compare by (checked by the caller). */
  fields: readonly string[];
  /** What the similar items must also match; ALL for no restriction. */
  restrict?: QueryNode<string>;
  offset: number;
  rows: number;
  /**
   * `false` when the number of similar items is not shown (the item page): the answer's total
   * is then a lower bound, and the page cheaper to find (SearchRequest.count).
   */
  count?: false;
}

/**
 * The items like `id`: undefined when no item has that id; an answer with no hits when the
 * item has no term to compare by.
 */
export async function moreLikeThis(
  engine: (search: EngineSearch) => Promise<EngineAnswer>,
  request: MltRequest,
): Promise<EngineAnswer | undefined> {
  const self: QueryNode<string> = { kind: 'term', field: 'id', text: request.id };
  const source = await engine({ kind: 'item', request: { query: self, sort: { kind: 'relevance' }, offset: 0, rows: 1 }, fields: true });
  const stored = source.fields?.[0];
  if (source.total === 0 || stored === undefined) return undefined;
  const clauses = await withoutCommonWords(engine, mltClauses(stored, request.fields));
  if (clauses.length === 0) return { total: 0, ids: [], scores: [], facets: [], matchedTerms: [], docs: [] };
  return engine({
    kind: 'item',
    request: {
      query: and([request.restrict ?? ALL, or(clauses), { kind: 'not', child: self }]),
      sort: { kind: 'relevance' },
      offset: request.offset,
      rows: request.rows,
      ...(request.count === false ? { count: false as const } : {}),
    },
  });
}

/** The clauses without the words too common to compare by (facet values stay). */
export async function withoutCommonWords(
  engine: (search: EngineSearch) => Promise<EngineAnswer>,
  clauses: QueryNode<string>[],
  common: CommonWords = { share: MLT_MAX_DOC_SHARE, floor: MLT_COMMON_FLOOR },
): Promise<QueryNode<string>[]> {
  const words: Array<{ clause: QueryNode<string>; field: string; text: string }> = [];
  for (const c of clauses)
    if (c.kind === 'term' && c.field !== null && (MLT_TEXT_FIELDS as readonly string[]).includes(c.field))
      words.push({ clause: c, field: c.field, text: c.text });
  if (words.length === 0) return clauses;
  const counted = await engine({
    kind: 'item',
    request: { query: ALL, sort: { kind: 'relevance' }, offset: 0, rows: 0 },
    docFreqs: words.map(({ field, text }) => ({ field, text })),
  });
  const most = Math.max(common.share * counted.total, common.floor);
  const left = new Set(words.filter((_, i) => counted.docFreqs![i]! > most).map((w) => w.clause));
  return clauses.filter((c) => !left.has(c));
}
