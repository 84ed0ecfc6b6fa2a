/**
 * The rows of the pages (target: each page p99 ≤ 50 ms server time on the bench's 1 M
 * items) and of "did you mean" (a misspelt common term, ≤ 5 ms added at p99). Every row runs at
 * one connection, so p99 is a request's own time.
 */
import type { Fetch, ItemTerms, SearchCase } from './itemSearch.js';

const enc = encodeURIComponent;

export interface PageInputs {
  /** An item deep in a hierarchy: its page has a breadcrumb, its tree many levels. */
  deepItem: string;
  /** A collection's root: its page lists children. */
  rootItem: string;
  /** A person's GND id (the bare number, as the page's path takes it). */
  gnd: string;
  terms: ItemTerms;
}

/**
 * The pages a visitor opens, in the order a visit goes: home, results (a date range, a facet's
 * values), the places of a search and around a point (the bench's items have EDM places with
 * coordinates: bench/synth/items.ts), an item, its tree, a person, the persons index. Every page
 * of docs/pages.md that reads the index has a row.
 */
export function pageCases(p: PageInputs): SearchCase[] {
  const target = 'p99 ≤ 50 ms';
  return [
    { name: 'page: home', path: '/', target },
    { name: `page: search '${p.terms.common}' (thumbnails, facets, persons)`, path: `/search?query=${enc(p.terms.common)}`, target },
    {
      name: `page: search '${p.terms.common}' + type filter, page 3`,
      path: `/search?q=${enc(p.terms.common)}&f=${enc(`type_fct:${p.terms.topType}`)}&page=3`,
      target,
    },
    {
      name: `page: search '${p.terms.common}' + date range 1801–1900 (histogram)`,
      path: `/search?q=${enc(p.terms.common)}&from=1801&to=1900`,
      target,
    },
    { name: 'page: all values of place_fct (every hit, filtered by "a")', path: '/facet/place_fct?fq=a', target },
    {
      name: `page: places of '${p.terms.common}' (the 50 places with most hits, each named)`,
      path: `/places?q=${enc(p.terms.common)}`,
      target,
    },
    { name: 'page: places within 100 km of Leipzig (every point, the 50 nearest named)', path: '/places?pt=51.34,12.37&d=100', target },
    { name: 'page: item, depth 12 (breadcrumb, children)', path: `/item/${p.deepItem}`, target },
    { name: 'page: collection root (children, paged)', path: `/item/${p.rootItem}`, target },
    { name: 'page: hierarchy tree down to depth 12', path: `/item/${p.deepItem}/tree`, target },
    { name: 'page: person (items that refer to them)', path: `/person/${enc(p.gnd)}`, target },
    { name: 'page: persons index, initial S, by items', path: '/persons?initial=S', target },
  ];
}

/**
 * A misspelling of `term` that finds nothing and that the server corrects back to `term`:
 * the row then measures exactly the extra work of "did you mean" (a query under minHits).
 * Throws when no such misspelling exists, so the row never measures something else.
 */
export async function misspelling(fetch: Fetch, term: string, ask: (query: string) => string): Promise<string> {
  const tries: string[] = [];
  for (let i = 2; i < term.length - 1; i++) {
    tries.push(term.slice(0, i) + term.slice(i + 1)); // a letter dropped
    tries.push(term.slice(0, i) + term[i + 1] + term[i] + term.slice(i + 2)); // two swapped
  }
  for (const wrong of tries) {
    if (wrong === term) continue;
    const r = await fetch(ask(wrong));
    if (r.status !== 200) continue;
    const body = JSON.parse(r.body.toString()) as { numberOfResults: number; correctedQuery?: string };
    if (body.numberOfResults === 0 && body.correctedQuery === term) return wrong;
  }
  throw new Error(`no misspelling of '${term}' finds nothing and is corrected back to it`);
}

/** The did-you-mean rows: the plain term's row is in the table beside them, for the difference. */
export async function spellCases(fetch: Fetch, itemTerm: string, personTerm: string): Promise<SearchCase[]> {
  const items = (q: string) => `/search?query=${enc(q)}`;
  const persons = (q: string) => `/entities?query=${enc(q)}`;
  const wrongItem = await misspelling(fetch, itemTerm, items);
  const wrongPerson = await misspelling(fetch, personTerm, persons);
  return [
    { name: `search misspelt '${wrongItem}' → correctedQuery '${itemTerm}'`, path: items(wrongItem), target: 'p99 ≤ 5 ms' },
    { name: `entities misspelt '${wrongPerson}' → correctedQuery '${personTerm}'`, path: persons(wrongPerson), target: 'p99 ≤ 5 ms' },
  ];
}
