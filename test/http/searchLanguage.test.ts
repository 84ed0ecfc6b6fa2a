/**
 * Language analysis over HTTP (docs/search.md "What matches what"), on both backends, on the
 * real fixtures (the DDB's cortex packages and the HOPE records, tagged French and written
 * in English) and three packages written here for words the fixtures lack (`Verklärung`, a
 * compound, an exact beside a stemmed match): a query finds what its inflection, its German
 * transliteration or its possessive finds, so its whole body, in title order, is the body of
 * the other; a compound the index does not know finds its parts as a phrase; exact first.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/tempDir.js';
import { CORTEX_DIR, HOPE_DIR } from '../helpers/paths.js';

/** An EDM record of a title in a language, shaped as the HOPE records are (ProvidedCHO, Aggregation, Proxy). */
function edmRecord(n: number, title: string, language: string): string {
  const cho = `http://example.org/language-test/${n}`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<rdf:RDF xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:edm="http://www.europeana.eu/schemas/edm/" ' +
    'xmlns:ore="http://www.openarchives.org/ore/terms/" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    `<edm:ProvidedCHO rdf:about="${cho}"/>` +
    `<ore:Aggregation rdf:about="${cho}#aggregation"><edm:aggregatedCHO rdf:resource="${cho}"/>` +
    '<edm:dataProvider>Language test</edm:dataProvider><edm:provider>Language test</edm:provider>' +
    `<edm:isShownAt rdf:resource="${cho}"/><edm:rights rdf:resource="http://creativecommons.org/publicdomain/zero/1.0/"/></ore:Aggregation>` +
    `<ore:Proxy rdf:about="${cho}#proxy"><dc:language>${language}</dc:language><dc:title>${title}</dc:title>` +
    `<dc:type>item</dc:type><edm:type>TEXT</edm:type><ore:proxyFor rdf:resource="${cho}"/></ore:Proxy>` +
    '</rdf:RDF>'
  );
}

/** Words the fixtures lack: `Verklärung`, a compound and its parts, an exact beside an inflected word. */
const TITLES = [
  "Goethe's Verklärung",
  'Die Arbeiter-Bewegung in Sachsen',
  'Bewegung der Arbeiter',
  'Das Erbe der Arbeiterbewegung',
  'Bücher aus dem Nachlass der Bewegungen',
];
const PACKAGES = tempDir('language-edm');
TITLES.forEach((title, i) => writeFileSync(join(PACKAGES, `record${i + 1}.xml`), edmRecord(i + 1, title, 'de')));

interface Body {
  numberOfResults: number;
  correctedQuery?: string;
  highlightedTerms: string[];
  results: Array<{ docs: Array<{ id: string; title?: string }> }>;
}

async function search(t: TestApp, query: string, sort = 'ALPHA_ASC'): Promise<Body> {
  const url = `/search?query=${encodeURIComponent(query)}&rows=1000&sort=${sort}&facet=type_fct`;
  const res = await t.app.inject({ url, headers: t.json });
  assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
  return JSON.parse(res.body) as Body;
}

const titles = (b: Body) => b.results.flatMap((r) => r.docs.map((d) => d.title));

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  let shared: Promise<TestApp> | undefined;
  const app = () => (shared ??= startTestApp(backend, { load: [CORTEX_DIR, HOPE_DIR, PACKAGES] }));

  test(`${b} an inflection, a transliteration and a possessive find what the word finds`, async () => {
    const a = await app();
    const pairs: Array<[string, string]> = [
      ['worker', 'workers'],
      ['Worker', 'WORKERS'],
      ['syndicalist', 'syndicalism'],
      ['goethes', "Goethe's"],
      ['verklaerung', 'Verklärung'],
    ];
    for (const [typed, written] of pairs) {
      const want = await search(a, written);
      assert.ok(want.numberOfResults > 0, `${written} finds records`);
      // highlightedTerms are the words of the query as typed
      assert.deepEqual(
        await search(a, typed),
        { ...want, highlightedTerms: (await search(a, typed)).highlightedTerms },
        `${typed} finds what ${written} finds`,
      );
    }
    // the fixtures' numbers, so that a change of the fixtures shows here
    assert.equal((await search(a, 'worker')).numberOfResults, 786);
    assert.equal((await search(a, 'syndicalist')).numberOfResults, 786);
    assert.deepEqual(titles(await search(a, 'verklaerung')), ["Goethe's Verklärung"]);
    assert.ok((await search(a, 'goethes')).numberOfResults >= 2, 'Goethe of the cortex packages and of the package written here');
  });

  test(`${b} a compound the index does not know finds its two words as a phrase`, async () => {
    const a = await app();
    // `arbeiterbewegung` itself is a word of one package, so a compound of it is tried on its inflection
    assert.deepEqual(titles(await search(a, 'Arbeiterbewegungen')), ['Das Erbe der Arbeiterbewegung', 'Die Arbeiter-Bewegung in Sachsen']);
    assert.deepEqual(titles(await search(a, 'Arbeiterbewegung')), ['Das Erbe der Arbeiterbewegung']);
    assert.deepEqual(titles(await search(a, 'Sachsenarbeiter')), []);
  });

  test(`${b} an exact match ranks above an analysed one`, async () => {
    const a = await app();
    assert.deepEqual(titles(await search(a, 'Bewegungen', 'RELEVANCE')), [
      'Bücher aus dem Nachlass der Bewegungen',
      'Bewegung der Arbeiter',
      'Die Arbeiter-Bewegung in Sachsen',
    ]);
    assert.deepEqual(titles(await search(a, 'Bewegung', 'RELEVANCE')), [
      'Bewegung der Arbeiter',
      'Die Arbeiter-Bewegung in Sachsen',
      'Bücher aus dem Nachlass der Bewegungen',
    ]);
  });

  test(`${b} a first letter mistyped is corrected to a frequent word`, async () => {
    const a = await app();
    const none = await search(a, 'Qqqqxxxx');
    assert.equal(none.numberOfResults, 0);
    const kombat = await search(a, 'Kombat');
    assert.deepEqual(kombat, { ...none, highlightedTerms: kombat.highlightedTerms, correctedQuery: 'Combat' });
  });
}
