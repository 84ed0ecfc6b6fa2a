/**
 * Names across languages and scripts (docs/search.md "Names across languages and scripts"),
 * over the real server on the real fixtures, on both backends, whole bodies: a variant name
 * of the GND record (Cyrillic `Гёте`, `Гете` without its diaeresis, the transliteration
 * `Gete, Jōhan Wolfgang fon`) finds Goethe in the person search, and in the item search the
 * items linked to his GND id (`affiliate_fct_normdata`), ranked below the items whose text
 * matches; /search/facets/{facetName} counts the same hits.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { itemDocumentsFromJson, type ItemDocuments } from '../../src/search/schemas/itemDocument.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CORTEX_DIR, FIXTURES } from '../helpers/paths.js';

const LOBID = `${FIXTURES}persons/lobid-gnd/LobidPerson.json`;
const EF = `${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`;
const GOETHE = 'http://d-nb.info/gnd/118540238';
/** The items the fixtures link to Goethe's GND id, by folded title: the photo album, the print "Goethe". */
const LINKED = ['222NZKK63TNRLC2VETRV722VKBDSUVGL', 'TNPFDKO2VDGBZ72RWC6RKDNZYZQZP3XK'];
/** The print "Cornelie Goethe", whose title has "Cornelie" and which is not linked to Goethe. */
const CORNELIE = '4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22';

async function storedItems(t: TestApp): Promise<Map<string, ItemDocuments>> {
  const out = new Map<string, ItemDocuments>();
  let position: string | null = null;
  for (;;) {
    const batch = await t.store.readSearchChanges('item', position, 10_000);
    if ('rescan' in batch) throw new Error('rescan');
    for (const c of batch.changes) if (c.body !== null) out.set(c.id, itemDocumentsFromJson(c.body, c.id));
    position = batch.position;
    if (batch.done) return out;
  }
}

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  let shared: Promise<TestApp> | undefined;
  const app = () => (shared ??= startTestApp(backend, { load: [CORTEX_DIR], loadEntities: [LOBID, EF] }));
  const get = async (t: TestApp, url: string) => {
    const res = await t.app.inject({ url, headers: t.json });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return JSON.parse(res.body) as Record<string, unknown>;
  };
  /** The docs of GET /entities for a query. */
  const persons = async (t: TestApp, query: string) =>
    ((await get(t, `/entities?query=${encodeURIComponent(query)}`)).results as Array<{ docs: unknown[] }>)[0]!.docs;

  test(`${b} a variant name in another script or transliteration finds the person`, async () => {
    const t = await app();
    for (const query of ['Гёте', 'Гете', 'Gete, Jōhan Wolfgang fon', 'Geteh, Yohan Ṿolfgang fon']) {
      const docs = (await persons(t, query)) as Array<{ id: string }>;
      assert.deepEqual(
        docs.map((d) => d.id),
        [GOETHE],
        query,
      );
    }
  });

  test(`${b} /search: a variant name finds the items linked to the person, ranked below the items whose text matches`, async () => {
    const t = await app();
    const items = await storedItems(t);
    const result = (id: string) => items.get(id)!.result;
    // The words of the query found in the hits are highlighted, as always (`Wolfgang` is in both).
    for (const [query, highlightedTerms] of [
      ['Гёте', []],
      ['Gete, Jōhan Wolfgang fon', ['Wolfgang']],
    ] as const) {
      const body = await get(t, `/search?query=${encodeURIComponent(query)}&facet=affiliate_fct_normdata`);
      assert.deepEqual(
        body,
        {
          numberOfResults: 2,
          results: [{ name: 'single', docs: LINKED.map(result), numberOfDocs: 2 }],
          facets: [
            {
              field: 'affiliate_fct_normdata',
              numberOfFacets: 3,
              facetValues: [
                { count: 2, value: GOETHE },
                { count: 1, value: 'http://d-nb.info/gnd/117466034' },
                { count: 1, value: 'http://d-nb.info/gnd/118592343' },
              ],
            },
          ],
          entities: await persons(t, `preferredName:(${query}) OR variantName:(${query})`),
          correctedQuery: '',
          highlightedTerms,
          randomSeed: '',
        },
        query,
      );
      // The facet values of the same search count the same hits.
      assert.deepEqual(
        await get(t, `/search/facets/affiliate_fct_normdata?query=${encodeURIComponent(query)}`),
        (body.facets as unknown[])[0],
      );
    }
    // A word of a title first (its score), then the linked items (a link scores nothing), by title.
    const mixed = await get(t, `/search?query=${encodeURIComponent('Гёте OR Cornelie')}`);
    assert.deepEqual(mixed, {
      numberOfResults: 3,
      results: [{ name: 'single', docs: [CORNELIE, ...LINKED].map(result), numberOfDocs: 3 }],
      facets: [],
      entities: await persons(t, 'preferredName:Гёте OR variantName:Гёте OR preferredName:Cornelie OR variantName:Cornelie'),
      correctedQuery: '',
      highlightedTerms: ['Cornelie'],
      randomSeed: '',
    });
    // A field query names no person: no links.
    const fielded = await get(t, `/search?query=${encodeURIComponent('title:Гёте')}`);
    assert.equal(fielded.numberOfResults, 0);
    assert.deepEqual(fielded.entities, []);
  });
}
