/**
 * "Did you mean" (src/search/engine/spellcheck.ts; docs/search-engine.md "Spellcheck"): real
 * misspellings against
 * indexes of the real fixtures (the 1,222 persons of culturehub, the item packages), as
 * tables of the query sent and the correction expected ("" = none); the candidate walk
 * (nearTerms.ts) against a brute force over a vocabulary; corrections following loads.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { readPreparedPersons } from '../../src/ingest/persons/preparePerson.js';
import type { Person } from '../../src/domain/person.js';
import { parseQuery } from '../../src/query/parse.js';
import { Dictionary } from '../../src/search/engine/dictionary.js';
import { ImageSink, ImageSource, type SectionType } from '../../src/search/engine/indexImage.js';
import { SearchRequestError } from '../../src/search/engine/errors.js';
import { itemDocumentsFromJson } from '../../src/search/schemas/itemDocument.js';
import { editDistance, nearTerms } from '../../src/search/engine/nearTerms.js';
import { personDocument } from '../../src/search/schemas/personDocument.js';
import { queryFields } from '../../src/search/engine/schema.js';
import { itemSchema } from '../../src/search/schemas/itemSchema.js';
import { personSchema } from '../../src/search/schemas/personSchema.js';
import { SearchIndex } from '../../src/search/engine/SearchIndex.js';
import { withCaseOf } from '../../src/search/engine/spellcheck.js';
import type { SearchDocument, SearchRequest } from '../../src/search/engine/types.js';
import { FIXTURES } from '../helpers/paths.js';
import { cortexPackages, edmPackages } from './itemFixtures.js';

const FAR = () => Date.now() + 60_000;

function personIndex(): SearchIndex {
  const text = readFileSync(`${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`, 'utf8');
  const ix = new SearchIndex(personSchema);
  for (const r of readPreparedPersons(text)) if (r.kind === 'record') ix.upsert(personDocument(JSON.parse(r.record.doc) as Person, 0));
  return ix;
}

async function itemIndex(): Promise<SearchIndex> {
  const ix = new SearchIndex(itemSchema);
  for (const p of [...cortexPackages(), ...(await edmPackages())])
    ix.upsert({ ...itemDocumentsFromJson(p.item.json, p.item.id).search, id: p.item.id });
  return ix;
}

function request(ix: SearchIndex, text: string, minHits = 1, filters?: SearchRequest['filters']): SearchRequest {
  const query = parseQuery(text, { fields: queryFields(ix.schema) });
  return { query, filters, sort: { kind: 'relevance' }, offset: 0, rows: 10, spellcheck: { minHits, text } };
}

function corrected(ix: SearchIndex, text: string, minHits = 1): string {
  return ix.search(request(ix, text, minHits), FAR()).correctedQuery!;
}

/** query sent → correction expected ("" = none), with minHits 1 unless a third column says. */
type Row = [sent: string, expected: string, minHits?: number];

const PERSON_ROWS: Row[] = [
  ['Schriftsteler', 'Schriftsteller'], // a compound German word, one letter dropped
  ['Schriftstellr Berlin', 'Schriftsteller Berlin'],
  ['schriftsteler', 'schriftsteller'], // the case as written
  ['SCHRIFTSTELER', 'SCHRIFTSTELLER'],
  ['Dramatikr Wienn', 'Dramatiker Wien'], // two words, each corrected
  ['Übersetzr', 'Übersetzer'], // diacritics: matched folded, spelt as the documents spell it
  ['Pädagoe', 'Pädagoge'],
  ['Zürch', 'Zürich'],
  ['Zurrich', 'Zürich'], // written without the umlaut, corrected with it
  ['Straus Emil', 'Strauß Emil'], // Emil Strauß: ß folds to ss, and is spelt ß
  ['Horvath Ödönn', 'Horvath Ödön'], // Ödön von Horváth: the word left alone stays as written
  ['professionOrOccupation:Schriftstelerin', 'professionOrOccupation:Schriftstellerin'], // a field query: field kept
  ['placeOfBirth:Schriftsteler', ''], // no place of birth is near it: other fields do not count
  ['"Ödön von Horváth" Pariss', '"Ödön von Horváth" Paris'], // the phrase as written
  ['Schriftst?ller Berlinn', 'Schriftst?ller Berlin'], // the wildcard as written
  ['Schrift*   Wienn', 'Schrift*   Wien'], // the prefix and the blanks as written
  ['(Dramatikr OR Lyrikr) AND Wienn', '(Dramatiker OR Lyriker) AND Wien'],
  ['Wagner Schriftsteler', 'Wagner Schriftsteller'], // Wagner (1 person) stays, though Walter (35) is 2 edits away
  ['Wagner', ''], // rare but right: it finds its person
  ['Soziologin', ''], // rare but right (Soziologe: 22 persons)
  ['Soziologin Berlinn', ''], // Berlin is near, but no Soziologin of Berlin: the correction would find nothing more
  ['Schriftsteler -Berlinn', 'Schriftsteller -Berlinn'], // a NOT is not corrected
  ['Goehte', ''], // no Goethe among these persons
  ['Beethofen', ''], // nor Beethoven
  ['Wienn OR Mnn', 'Wien OR Mnn'], // words under 4 letters are left alone
  ['Schriftsteller 18866', ''], // numbers too (and this one finds nothing either way)
];

const ITEM_ROWS: Row[] = [
  ['Goehte', 'Goethe'], // a transposition is one edit
  ['Kombat', 'Combat'], // a first letter wrong: Combat is frequent (786 items)
  ['Syndicalizm', 'Syndicalism'],
  ['title:Goehte', 'title:Goethe'],
  ['description:Goehte', 'description:Goethe'],
  ['Tafelklaveir', 'Tafelklavier'], // compound words
  ['Musikinstrumnte', 'Musikinstrumente'],
  ['Resonanzbodn', 'Resonanzboden'],
  ['Panpfeiffe', 'Panpfeife'],
  ['Nürnbreg', 'Nürnberg'],
  ['"Germanisches Nationalmuseum" Tafelklavir', '"Germanisches Nationalmuseum" Tafelklavier'],
  ['Tafelklav* Nürnbrg', 'Tafelklav* Nürnberg'],
  ['Klavi?tur Nurnberk', 'Klavi?tur Nürnberg'],
  ['keywords:Tafelklavir', ''], // no keyword near it
  ['Unterbogen', ''], // rare but right: Unterboden (14 items) is one edit away
  ['Unterbogen Metalstreifen', 'Unterbogen Metallstreifen'], // the Euphonium of Leipzig
  ['Clavichorde', ''], // 17 items: enough for minHits 1
  ['Clavichorde', '', 20], // fewer than minHits 20, but its analysed form finds clavichord's 18 already: no correction finds more
  ['Clavichorde', '', 0],
  ['-Clavichrd Tafelklavier', ''], // enough hits: nothing looked at
];

test('persons of the fixtures: query sent → correction', () => {
  const ix = personIndex();
  const got = PERSON_ROWS.map(([q, , m]) => [q, corrected(ix, q, m), m] as Row);
  assert.deepEqual(
    got,
    PERSON_ROWS.map(([q, e, m]) => [q, e, m]),
  );
});

test('items of the fixtures: query sent → correction', async () => {
  const ix = await itemIndex();
  const got = ITEM_ROWS.map(([q, , m]) => [q, corrected(ix, q, m), m] as Row);
  assert.deepEqual(
    got,
    ITEM_ROWS.map(([q, e, m]) => [q, e, m]),
  );
});

test('the hits stay those of the query as sent; the correction finds more', async () => {
  const ix = await itemIndex();
  for (const [q, minHits] of [
    ['Goehte', 1],
    ['Clavichorde', 20],
    ['Tafelklavier', 1],
  ] as const) {
    const req = request(ix, q, minHits);
    const { correctedQuery, ...rest } = ix.search(req, FAR());
    const { spellcheck: _, ...plain } = req;
    assert.deepEqual(rest, ix.search(plain, FAR()), q);
    if (correctedQuery) assert.ok(ix.search(request(ix, correctedQuery), FAR()).total > rest.total, q);
  }
  assert.equal(ix.search(request(ix, 'Tafelklavier'), FAR()).correctedQuery, '');
  assert.equal(ix.search({ ...request(ix, 'Goehte'), spellcheck: undefined }, FAR()).correctedQuery, undefined);
});

test('the correction is run with the filters of the request', async () => {
  const ix = await itemIndex();
  const goethe = ix.search(request(ix, 'Goethe'), FAR());
  assert.ok(goethe.total > 0);
  const none = { type_fct: ['no such type'] };
  assert.equal(ix.search(request(ix, 'Goehte', 1, none), FAR()).correctedQuery, '');
});

test('a text that does not parse gives no correction; a bad minHits is a request error', () => {
  const ix = personIndex();
  const req = request(ix, 'Schriftsteler');
  assert.equal(ix.search({ ...req, spellcheck: { minHits: 1, text: 'Schriftsteler AND' } }, FAR()).correctedQuery, '');
  for (const minHits of [-1, 1.5, NaN]) {
    assert.throws(() => ix.search({ ...req, spellcheck: { minHits, text: 'x' } }, FAR()), SearchRequestError);
  }
});

function person(id: string, name: string, occupation: string): SearchDocument {
  return {
    id,
    text: { preferredName: [name], professionOrOccupation: [occupation] },
    facets: {},
    numbers: {},
    sort: { preferredName: name.toLowerCase() },
  };
}

test('corrections follow loads: new terms become candidates, deleted documents no longer count', () => {
  const ix = personIndex();
  assert.equal(corrected(ix, 'Goehte'), '');
  ix.upsert(person('goethe', 'Johann Wolfgang von Goethe', 'Dichter'));
  assert.equal(corrected(ix, 'Goehte'), 'Goethe'); // a term added since the vocabulary was last sorted
  assert.equal(corrected(ix, 'Dichtr Goehte'), 'Dichter Goethe');
  // Goethe (1 person) against Goetze, also one edit from `Goetue`: the one in more documents wins
  ix.upsert(person('goetze-1', 'Goetze, Anna', 'Malerin'));
  ix.upsert(person('goetze-2', 'Goetze, Berta', 'Malerin'));
  assert.equal(corrected(ix, 'Goetue'), 'Goetze');
  ix.delete('goetze-1');
  ix.delete('goetze-2');
  assert.equal(corrected(ix, 'Goetue'), 'Goethe');
  ix.delete('goethe');
  assert.equal(corrected(ix, 'Goehte'), '');
});

test('a word with fewer than minHits documents gets a candidate with at least twice as many', () => {
  const ix = new SearchIndex(personSchema);
  for (let i = 0; i < 3; i++) ix.upsert(person(`goetze-${i}`, 'Goetze', 'Malerin'));
  for (let i = 0; i < 5; i++) ix.upsert(person(`goethe-${i}`, 'Goethe', 'Dichter'));
  // Goetze (3) is one letter from Goethe (5): fewer than minHits 10, but 5 is not twice 3
  assert.equal(corrected(ix, 'Goetze', 10), '');
  ix.upsert(person('goethe-5', 'Goethe', 'Dichter'));
  assert.equal(corrected(ix, 'Goetze', 10), 'Goethe'); // 6 = twice 3
  assert.equal(corrected(ix, 'Goetze', 3), ''); // enough documents: right, however rare
  assert.equal(corrected(ix, 'Goehte', 10), 'Goethe'); // a word no document holds: any candidate
});

test('a mistyped first letter is corrected when the right word is frequent', () => {
  const ix = new SearchIndex(personSchema);
  for (let i = 0; i < 19; i++) ix.upsert(person(`c-${i}`, 'Combat', 'Zeitschrift'));
  assert.equal(corrected(ix, 'Kombat'), ''); // 19 documents: not frequent enough
  ix.upsert(person('c-19', 'Combat', 'Zeitschrift'));
  assert.equal(corrected(ix, 'Kombat'), 'Combat');
  assert.equal(corrected(ix, 'Ombat'), 'Combat'); // the first letter left out
  assert.equal(corrected(ix, 'Ocmbat'), 'Combat'); // the first two swapped
  ix.upsert(person('k', 'Kombinat', 'Zeitschrift'));
  assert.equal(corrected(ix, 'Kombat'), 'Combat'); // one edit before Kombinat's two
  assert.equal(corrected(ix, 'Kombinta'), 'Kombinat'); // the first letter kept: the walk as before
});

test('ties of distance and documents go to the first term in code point order', () => {
  const ix = new SearchIndex(personSchema);
  ix.upsert(person('a', 'Maier', 'x'));
  ix.upsert(person('b', 'Mayer', 'x'));
  assert.equal(corrected(ix, 'Maxer'), 'Maier');
});

test('nearTerms finds exactly the terms a brute force finds, in a dictionary built here and in one restored from an image', () => {
  let seed = 7;
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  // 𝔘 is two UTF-16 units, so a walk's cut can fall inside it (frontCoded.ts prefixEndUnits)
  const letters = ['a', 'b', 'c', 'd', 'e', 'ä', 'ß', '𝔘'];
  const word = () => Array.from({ length: 2 + Math.floor(rnd() * 8) }, () => letters[Math.floor(rnd() * letters.length)]).join('');
  const built = new Dictionary();
  for (let i = 0; i < 4000; i++) built.intern(word());
  // restored: the first 4000 front-coded in shared bytes (dictionary.ts), as a search worker reads them
  const sink = new ImageSink();
  built.image(sink, 't');
  const sections = new Map<string, { type: SectionType; bytes: Uint8Array }>();
  for (const s of sink.sections) {
    const data = Buffer.concat([...s.pieces()].map((x) => Buffer.from(x)));
    const bytes = new Uint8Array(new SharedArrayBuffer(data.length));
    bytes.set(data);
    sections.set(s.name, { type: s.type, bytes });
  }
  const restored = new Dictionary();
  restored.restore(new ImageSource(sink.values, sections, true), 't');
  for (let i = 0; i < 2000; i++) {
    const w = word();
    built.intern(w);
    restored.intern(w);
    if (i === 1800) {
      // sorted so far; the rest stays in the tail (the restored one: front-coded, sorted additions, a tail)
      built.view();
      restored.view();
    }
  }
  assert.deepEqual(
    restored.view().runs.map((r) => r.length > 0),
    [true, true],
  );
  for (const dict of [built, restored]) {
    const { runs, recent } = dict.view();
    assert.ok(recent.length > 0);
    const vocabulary = [...recent];
    for (const run of runs) for (let i = 0; i < run.length; i++) vocabulary.push(run.at(i));
    for (let q = 0; q < 60; q++) {
      const w = word();
      for (const [k, minPrefix] of [
        [1, 0],
        [2, 0],
        [2, 1],
        [3, 2],
      ] as const) {
        const got: string[] = [];
        nearTerms(dict, w, k, minPrefix, (t, d) => got.push(`${t}:${d}`));
        const want = vocabulary
          .filter((t) => t.startsWith(w.slice(0, minPrefix)) && editDistance(t, w) <= k)
          .map((t) => `${t}:${editDistance(t, w)}`);
        assert.deepEqual(got.sort(), want.sort(), `${w} k=${k} minPrefix=${minPrefix}`);
      }
    }
  }
});

test('editDistance counts a swap of neighbours as one edit', () => {
  const rows: Array<[string, string, number]> = [
    ['goehte', 'goethe', 1],
    ['beethofen', 'beethoven', 1],
    ['schriftsteler', 'schriftsteller', 1],
    ['ca', 'abc', 3], // optimal string alignment, not the unrestricted Damerau distance (2)
    ['', 'abc', 3],
    ['kitten', 'sitting', 3],
  ];
  for (const [a, b, d] of rows) {
    assert.equal(editDistance(a, b), d, `${a} ${b}`);
    assert.equal(editDistance(b, a), d, `${b} ${a}`);
  }
});

test('withCaseOf spells a correction with the case pattern of the word it replaces', () => {
  assert.deepEqual(
    [
      ['goehte', 'goethe'],
      ['Goehte', 'goethe'],
      ['GOEHTE', 'goethe'],
      ['gOEHTE', 'goethe'],
      ['Übersetzr', 'ubersetzer'],
      ['Ubersetzr', 'übersetzer'],
      ['STRAUS', 'strauß'],
      ['É', 'e'],
    ].map(([w, f]) => withCaseOf(w!, f!)),
    ['goethe', 'Goethe', 'GOETHE', 'goethe', 'Ubersetzer', 'Übersetzer', 'STRAUSS', 'E'],
  );
});

test('a correction is spelt as most documents spell the term', () => {
  const ix = new SearchIndex(personSchema);
  let n = 0;
  const add = (name: string) => ix.upsert({ id: `p${n++}`, text: { preferredName: [name] }, facets: {}, numbers: {}, sort: {} });
  add('Zurich');
  add('Zurich Zurich');
  add('Zürich Zürich Zürich'); // a document counts once per spelling
  assert.equal(ix.spelling('zurich'), 'zurich', 'two documents spell it zurich, one zürich');
  assert.equal(corrected(ix, 'Zurch'), 'Zurich');
  add('ZÜRICH'); // lower case: the same spelling as Zürich
  assert.equal(ix.spelling('zurich'), 'zürich', 'a tie goes to the spelling with diacritics');
  add('Zùrich');
  add('Zùrich');
  assert.equal(ix.spelling('zurich'), 'zùrich', 'the most documents');
  assert.equal(corrected(ix, 'ZURCH'), 'ZÙRICH');
  add('Strasse Straße Straße');
  assert.equal(ix.spelling('strasse'), 'straße', 'a document with both spellings counts for the one that is not the term');
  assert.equal(ix.spelling('goethe'), 'goethe', 'an unknown term is itself');
  assert.equal(ix.spellings.size, 3, 'kept only where not the term: zürich, zùrich, straße');
});
