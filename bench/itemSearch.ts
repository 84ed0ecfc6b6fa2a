/**
 * The item search rows of the benchmark (targets in docs/benchmarks.md) and `parents` while
 * items load. The terms are chosen by asking the server: the words of a random sample of
 * titles, each tried for its number of hits, so the rows mean the same at any data size.
 */
export interface Answer {
  status: number;
  body: Buffer;
}

export type Fetch = (path: string) => Promise<Answer>;

export interface ItemTerms {
  rare: string;
  common: string;
  veryCommon: string;
  /** How many hits each has, for the table's captions. */
  hits: Record<'rare' | 'common' | 'veryCommon', number>;
  /** The most frequent value of type_fct and sector_fct, to filter on. */
  topType: string;
  topSector: string;
}

interface V1Answer {
  numberOfResults: number;
  results: Array<{ docs: Array<{ id: string; title: string }> }>;
  facets: Array<{ field: string; facetValues: Array<{ value: string; count: number }> }>;
  nextCursorMark?: string;
}

async function v1(fetch: Fetch, path: string): Promise<V1Answer> {
  const r = await fetch(path);
  if (r.status !== 200) throw new Error(`${path}: status ${r.status}: ${r.body.toString().slice(0, 300)}`);
  return JSON.parse(r.body.toString()) as V1Answer;
}

const enc = encodeURIComponent;

/** Picks a rare (< 100 hits), a common (1–5 % of items) and a very common (the most hits) title word. */
export async function chooseItemTerms(fetch: Fetch): Promise<ItemTerms> {
  const all = await v1(fetch, '/search?query=*:*&rows=1000&sort=RANDOM_7&facet=type_fct&facet=sector_fct');
  const n = all.numberOfResults;
  const words = new Map<string, number>();
  for (const d of all.results[0]?.docs ?? []) {
    for (const w of new Set(d.title.toLowerCase().match(/\p{L}{4,}/gu) ?? [])) words.set(w, (words.get(w) ?? 0) + 1);
  }
  const byFrequency = [...words].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
  const hitsOf = new Map<string, number>();
  const hits = async (w: string) => {
    if (!hitsOf.has(w)) hitsOf.set(w, (await v1(fetch, `/search?query=${enc(w)}&rows=0`)).numberOfResults);
    return hitsOf.get(w)!;
  };
  const veryCommon = byFrequency[0] ?? 'a';
  let common = veryCommon;
  for (const w of byFrequency.slice(0, 200)) {
    const h = await hits(w);
    if (h >= n * 0.01 && h <= n * 0.05) {
      common = w;
      break;
    }
  }
  let rare = byFrequency[byFrequency.length - 1] ?? veryCommon;
  for (const w of byFrequency.slice().reverse().slice(0, 200)) {
    const h = await hits(w);
    if (h > 0 && h < 100) {
      rare = w;
      break;
    }
  }
  const top = (field: string) => all.facets.find((f) => f.field === field)?.facetValues[0]?.value ?? '';
  return {
    rare,
    common,
    veryCommon,
    hits: { rare: await hits(rare), common: await hits(common), veryCommon: await hits(veryCommon) },
    topType: top('type_fct'),
    topSector: top('sector_fct'),
  };
}

export interface SearchCase {
  name: string;
  path: string;
  paths?: string[];
  target: string;
}

/** The item search rows, all at one connection (p99 is a request's own time). */
export function itemSearchCases(t: ItemTerms, deepPages: string[]): SearchCase[] {
  const target = 'p99 ≤ 20 ms';
  const cases: SearchCase[] = [
    { name: `search rare '${t.rare}' (${t.hits.rare} hits)`, path: `/search?query=${enc(t.rare)}`, target },
    {
      name: `search common '${t.common}' (${t.hits.common}) + place facet + type filter`,
      path: `/search?query=${enc(t.common)}&facet=place_fct&type_fct=${enc(t.topType)}`,
      target,
    },
    {
      name: `search very common '${t.veryCommon}' (${t.hits.veryCommon}) + place, time facets + sector filter`,
      path: `/search?query=${enc(t.veryCommon)}&facet=place_fct&facet=time_fct&sector_fct=${enc(t.topSector)}`,
      target,
    },
    {
      name: 'search *:* + type, sector, place, time facets',
      path: '/search?query=*:*&facet=type_fct&facet=sector_fct&facet=place_fct&facet=time_fct',
      target,
    },
    {
      name: `select q='${t.common}' + fq type + 2 facet.field`,
      path: `/search/index/search/select?q=${enc(t.common)}&fq=${enc(`type_fct:"${t.topType}"`)}&facet=true&facet.field=place_fct&facet.field=sector_fct&rows=20&wt=json`,
      target,
    },
    { name: `suggest '${t.common.slice(0, 3)}'`, path: `/search/suggest?query=${enc(t.common.slice(0, 3))}`, target: 'p99 ≤ 5 ms' },
  ];
  if (deepPages.length > 0) {
    cases.push({
      name: `search *:* cursor pages at depth ${deepPages.length > 1 ? 'up to ' : ''}100,000 (rows 20)`,
      path: deepPages[0]!,
      paths: deepPages,
      target,
    });
  }
  return cases;
}

/**
 * Walks `/search?query=*:*` with cursorMark (rows 1000) through up to `depth` hits, checking
 * each id comes once; returns the time per 100,000 hits and the cursor marks of the last
 * pages, so the deep pages can be driven as a row of their own.
 */
export async function itemCursorWalk(
  fetch: Fetch,
  depth: number,
): Promise<{ hits: number; seconds: number; exact: boolean; deepPages: string[] }> {
  const started = performance.now();
  const seen = new Set<string>();
  let duplicates = 0;
  const marks: string[] = [];
  for (let cursor = '*'; seen.size < depth;) {
    const page = await v1(fetch, `/search?query=*:*&rows=1000&cursorMark=${enc(cursor)}`);
    const docs = page.results[0]?.docs ?? [];
    for (const d of docs) {
      if (seen.has(d.id)) duplicates++;
      seen.add(d.id);
    }
    marks.push(cursor);
    if (docs.length === 0 || !page.nextCursorMark || page.nextCursorMark === cursor) break;
    cursor = page.nextCursorMark;
  }
  const deepPages = marks.slice(-10).map((m) => `/search?query=*:*&rows=20&cursorMark=${enc(m)}`);
  return { hits: seen.size, seconds: (performance.now() - started) / 1000, exact: duplicates === 0, deepPages };
}
