/**
 * GET /entities: the response shape of spec 2.1/2.2, the rules of spec 4.2
 * and docs/decisions.md "Entity search", and bad input. The large table of
 * queries over the real persons is in table.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CORTEX_DIR, FIXTURES } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';

const EF = `${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`;
const LOBID = `${FIXTURES}persons/lobid-gnd/`;
const get = async (t: TestApp, url: string, headers = t.json) => t.app.inject({ url, headers });

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} spec 2.1 / 2.2 / 4.2: id lookup answers exactly the JSON of the spec, all four facets in order`, async () => {
    const t = await startTestApp(backend, { loadEntities: [EF] });
    try {
      const res = await get(t, `/entities?query=${encodeURIComponent('id:"http://d-nb.info/gnd/124963463"')}`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(
        res.body,
        '{"numberOfResults":1,"results":[{"name":"single","docs":[' +
          '{"id":"http://d-nb.info/gnd/124963463","type":"person","preferredName":"Ignaz Zadek","variantName":["I. Zadek"],"dateOfBirth":"1858","dateOfDeath":"1931","professionOrOccupation":["Arzt"],"count":0}' +
          '],"numberOfDocs":1}],"facets":[' +
          '{"field":"person_name_fct","numberOfFacets":0,"facetValues":[]},' +
          '{"field":"person_place_fct","numberOfFacets":0,"facetValues":[]},' +
          '{"field":"person_gender_fct","numberOfFacets":0,"facetValues":[]},' +
          '{"field":"person_occupation_fct","numberOfFacets":0,"facetValues":[]}' +
          '],"correctedQuery":"","highlightedTerms":["http://d-nb.info/gnd/124963463"],"randomSeed":""}',
      );
      // docs/decisions.md "GND ids": the https form of a GND URI is the same person.
      const https = await get(t, `/entities?query=${encodeURIComponent('id:"https://d-nb.info/gnd/124963463"')}`);
      assert.equal(https.json().results[0].docs[0].id, 'http://d-nb.info/gnd/124963463');
    } finally {
      await t.close();
    }
  });

  test(`${b} spec 4.2: a term with a facet filter counts only entities matching both; the requested facet lists their values`, async () => {
    const t = await startTestApp(backend, { loadEntities: [EF] });
    try {
      const all = (await get(t, '/entities?query=Wien&rows=0')).json();
      const res = (await get(t, '/entities?query=Wien&person_gender_fct=Frau&facet=person_gender_fct&rows=0')).json();
      assert.ok(res.numberOfResults > 0 && res.numberOfResults < all.numberOfResults);
      assert.deepEqual(res.facets[2], {
        field: 'person_gender_fct',
        numberOfFacets: 1,
        facetValues: [{ count: res.numberOfResults, value: 'Frau' }],
      });
      assert.deepEqual(
        res.facets.map((f: { field: string }) => f.field),
        ['person_name_fct', 'person_place_fct', 'person_gender_fct', 'person_occupation_fct'],
      );
      assert.equal(res.results[0].numberOfDocs, res.numberOfResults);
    } finally {
      await t.close();
    }
  });

  test(`${b} decisions "Entity search": RANDOM_<seed> is stable for one seed and echoed in randomSeed`, async () => {
    const t = await startTestApp(backend, { loadEntities: [EF] });
    try {
      const ids = async (sort: string) => {
        const r = (await get(t, `/entities?query=Schriftsteller&rows=50&sort=${sort}`)).json();
        return { ids: r.results[0].docs.map((d: { id: string }) => d.id) as string[], seed: r.randomSeed as string };
      };
      const a = await ids('RANDOM_42');
      const again = await ids('random_42');
      const other = await ids('RANDOM_7');
      assert.equal(a.seed, '42');
      assert.deepEqual(again.ids, a.ids);
      assert.notDeepEqual(other.ids, a.ids);
      assert.equal((await ids('ALPHA_ASC')).seed, '');
    } finally {
      await t.close();
    }
  });

  test(`${b} count: items referring to a person, right whether items are loaded before or after the persons`, async () => {
    // The real cortex packages refer to Goethe (118540238) as subject; lobid-gnd has his record.
    const goethe = `/entities?query=${encodeURIComponent('id:"http://d-nb.info/gnd/118540238"')}`;
    const itemsFirst = await startTestApp(backend, { load: [CORTEX_DIR], loadEntities: [LOBID] });
    const personsFirst = await startTestApp(backend, { loadEntities: [LOBID] });
    try {
      const a = (await get(itemsFirst, goethe)).json();
      assert.equal(a.results[0].docs[0].preferredName, 'Johann Wolfgang von Goethe');
      // goethe.json and bare_id.json refer to him (affiliate_fct_normdata, subject, edm:Agent); the others do not
      // (checked with grep on fixtures/items/cortex).
      const expected = 2;
      assert.equal(a.results[0].docs[0].count, expected);
      assert.equal((await get(personsFirst, goethe)).json().results[0].docs[0].count, 0);
      const { ingestItems } = await import('../../src/ingest/ingestItems.js');
      await ingestItems(personsFirst.store, [CORTEX_DIR], { batchSize: 10 });
      assert.equal((await get(personsFirst, goethe)).json().results[0].docs[0].count, expected);
      // count is queryable and sortable.
      const counted = (await get(personsFirst, `/entities?query=${encodeURIComponent('count:[1 TO *]')}&sort=COUNT_DESC`)).json();
      assert.equal(counted.results[0].docs[0].id, 'http://d-nb.info/gnd/118540238');
    } finally {
      await itemsFirst.close();
      await personsFirst.close();
    }
  });

  test(`${b} relevance: searching Goethe puts Johann Wolfgang von Goethe before people who merely mention him`, async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = tempDir('rel');
    const person = (n: number, preferredName: string, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ id: `http://d-nb.info/gnd/9000000${n}`, type: 'person', preferredName, variantName: [], ...extra });
    // Written so that names sort the mentioners first: only relevance can put Goethe on top.
    writeFileSync(
      join(dir, 'persons.jsonl'),
      [
        person(1, 'Aachen, Anna', { professionOrOccupation: ['Goethe-Forscherin'] }),
        person(2, 'Becker, Bernd', { variantName: ['Goethe-Becker'] }),
        person(3, 'Goethe, Johann Wolfgang von', { dateOfBirth: '28. August 1749' }),
        person(4, 'Abel, Carl', { placeOfBirth: ['Goethestadt Weimar'] }),
      ].join('\n'),
    );
    const t = await startTestApp(backend, { loadEntities: [dir] });
    try {
      const res = (await get(t, '/entities?query=Goethe')).json();
      assert.deepEqual(
        res.results[0].docs.map((d: { preferredName: string }) => d.preferredName),
        ['Goethe, Johann Wolfgang von', 'Aachen, Anna', 'Becker, Bernd'],
      );
      // Word order does not matter for the exact-name tier.
      const exact = (await get(t, `/entities?query=${encodeURIComponent('Johann Wolfgang von Goethe')}`)).json();
      assert.equal(exact.results[0].docs[0].preferredName, 'Goethe, Johann Wolfgang von');
    } finally {
      await t.close();
    }
  });

  test(`${b} bad input: each a 400 with a message that says what to fix`, async () => {
    const t = await startTestApp(backend, { loadEntities: [EF] });
    const QUERY_HELP = ' See the query syntax in docs/api.md (Lucene standard syntax).';
    try {
      const cases: Array<[string, string, string]> = [
        [
          'query=(Goethe',
          'QuerySyntaxException',
          "Query syntax error at position 7: expected ')' to close '(' opened at position 0." + QUERY_HELP,
        ],
        ['query=Goethe)', 'QuerySyntaxException', ''],
        ['query=AND', 'QuerySyntaxException', ''],
        ['query=foo:bar', 'QuerySyntaxException', ''],
        [`query=${'a'.repeat(10_000)}`, 'QuerySyntaxException', ''],
        ['query=', 'QuerySyntaxException', ''],
        [
          'rows=100000',
          'InvalidParameterException',
          'The parameter rows must be given once, as a whole number from 0 to 1000 in the digits 0-9 only (no sign, space, decimal point, exponent or hex).',
        ],
        [
          'offset=-1',
          'InvalidParameterException',
          'The parameter offset must be given once, as a whole number from 0 to 1000000 in the digits 0-9 only (no sign, space, decimal point, exponent or hex).',
        ],
        [
          'rows=ten',
          'InvalidParameterException',
          'The parameter rows must be given once, as a whole number from 0 to 1000 in the digits 0-9 only (no sign, space, decimal point, exponent or hex).',
        ],
        [
          'sort=nonsense',
          'InvalidSearchException',
          "sort 'nonsense' is not known. Use RELEVANCE, ALPHA_ASC, ALPHA_DESC, COUNT_DESC or RANDOM_<seed>.",
        ],
        [
          'facet=person_hobby_fct',
          'InvalidSearchException',
          "facet 'person_hobby_fct' does not exist. Facets: person_name_fct, person_place_fct, person_gender_fct, person_occupation_fct.",
        ],
        // docs/decisions.md "Unknown parameters": a parameter /entities does not take is named,
        // with those it takes.
        [
          'person_hobby_fct=x',
          'UnknownParameterException',
          "The query parameter 'person_hobby_fct' is not one this operation takes, so it would be ignored. Its parameters: query, facet, offset, rows, sort, facet.limit, minDocs, cursorMark, afterId, person_name_fct, person_place_fct, person_gender_fct, person_occupation_fct, id, preferredName, variantName, professionOrOccupation, placeOfBirth, placeOfDeath, type, count, dateOfBirth_de, dateOfDeath_de (and oauth_consumer_key). Check the spelling (names are case-sensitive), or see /openapi.json.",
        ],
        [
          'cursorMark=nonsense',
          'InvalidSearchException',
          "cursorMark is not valid: send '*' to start, then the nextCursorMark of the previous response.",
        ],
        [
          'cursorMark=*&offset=20',
          'InvalidSearchException',
          'offset and cursorMark do not go together: page with cursorMark alone (start with cursorMark=*).',
        ],
        [
          'query=placeOfBirth:[a TO b]',
          'InvalidSearchException',
          'Ranges work on dateOfBirth, dateOfDeath, count and preferredName, not on placeOfBirth.',
        ],
        [
          'query=dateOfBirth:[early TO late]',
          'InvalidSearchException',
          "dateOfBirth:[… TO …] compares years; 'early' is not one. Example: dateOfBirth:[1800 TO 1850].",
        ],
        ['query=a*b-c*', 'InvalidSearchException', "The wildcard 'a*b-c*' spans several words; a wildcard matches within one word."],
        [
          'query=*:*&query=x',
          'BadRequestException',
          'Bad request: querystring/query must be string. See /openapi.json for the parameters of this operation.',
        ],
      ];
      for (const [params, name, message] of cases) {
        const res = await get(t, `/entities?${params}`);
        assert.equal(res.statusCode, 400, params.slice(0, 50));
        const body = res.json();
        assert.deepEqual(Object.keys(body), ['status', 'name', 'message'], params.slice(0, 50));
        assert.equal(body.name, name, params.slice(0, 50));
        if (message) assert.equal(body.message, message, params.slice(0, 50));
        else assert.match(body.message, /^Query syntax error at position \d+: .+\. See the query syntax/, params.slice(0, 50));
      }
      // A cursor of another search is refused.
      const first = (await get(t, '/entities?query=Wien&cursorMark=*&rows=1')).json();
      const wrong = await get(t, `/entities?query=Berlin&cursorMark=${first.nextCursorMark}&rows=1`);
      assert.equal(wrong.statusCode, 400);
      assert.equal(
        wrong.json().message,
        'cursorMark belongs to another search: keep query, filters and sort the same while paging, or start again with cursorMark=*.',
      );
    } finally {
      await t.close();
    }
  });

  test(`${b} the entity search answers JSON only: Accept that excludes JSON is 406, missing Accept is 406`, async () => {
    const t = await startTestApp(backend, { loadEntities: [EF] });
    try {
      const xml = await get(t, '/entities?query=Wien', t.xml);
      assert.equal(xml.statusCode, 406);
      // The client prefers XML, so the error comes in XML.
      assert.equal(
        xml.body,
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><error xmlns="http://www.deutsche-digitale-bibliothek.de/error"><status>406</status>' +
          '<name>NotAcceptableException</name><message>The requested type is not acceptable. Send an Accept header that allows application/json.</message></error>',
      );
      const none = await get(t, '/entities?query=Wien', { authorization: t.json.authorization! });
      assert.equal(none.statusCode, 406);
      const any = await get(t, '/entities?query=Wien', { accept: '*/*', authorization: t.json.authorization! });
      assert.equal(any.statusCode, 200);
      const noKey = await get(t, '/entities?query=Wien', { accept: 'application/json' });
      assert.equal(noKey.statusCode, 401);
    } finally {
      await t.close();
    }
  });
}

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} lobid-gnd persons come out in natural order, and a gender filter in either vocabulary finds both sources`, async () => {
    const t = await startTestApp(backend, { loadEntities: [EF, LOBID] });
    try {
      const goethe = (await get(t, `/entities?query=${encodeURIComponent('id:"http://d-nb.info/gnd/118540238"')}`)).json();
      assert.equal(goethe.results[0].docs[0].preferredName, 'Johann Wolfgang von Goethe');
      assert.equal(goethe.results[0].docs[0].variantName[0], 'Goethe, Johann Wolfgang von');
      // The inverted form still finds him, as a variant.
      const inverted = (await get(t, `/entities?query=${encodeURIComponent('variantName:"Goethe, Johann Wolfgang von"')}&rows=0`)).json();
      assert.equal(inverted.numberOfResults, 1);
      const facet = (await get(t, '/entities?rows=0&facet=person_gender_fct')).json();
      // EntityFacts: Mann 662, Frau 57; lobid-gnd (13 persons): Männlich 4, Weiblich 2, Unbekannt 7: one vocabulary.
      assert.deepEqual(facet.facets[2].facetValues, [
        { count: 666, value: 'Mann' },
        { count: 59, value: 'Frau' },
        { count: 7, value: 'Unbekannt' },
      ]);
      const count = async (url: string) => (await get(t, url)).json().numberOfResults as number;
      assert.equal(await count('/entities?rows=0&person_gender_fct=M%C3%A4nnlich'), 666);
      assert.equal(await count('/entities?rows=0&person_gender_fct=Mann'), 666);
      assert.equal(await count('/entities?rows=0&person_gender_fct=Weiblich'), 59);
      assert.equal(await count(`/entities?rows=0&query=${encodeURIComponent('gender:Männlich')}`), 666);
      assert.equal(await count(`/entities?rows=0&query=${encodeURIComponent('gender:Mann')}`), 666);
    } finally {
      await t.close();
    }
  });
}
