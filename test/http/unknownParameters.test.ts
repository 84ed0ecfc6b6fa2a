/**
 * docs/decisions.md "Unknown parameters": a query parameter an operation does not take is a 400
 * naming it and listing those it takes, on every route; never silently
 * ignored (`/entities?q=Goethe` once returned every person). 2.6.1's
 * per-field parameters of /entities work as field filters, or get a 400
 * saying what to use instead. Values are never echoed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CORTEX_DIR, FIXTURES } from '../helpers/paths.js';

const EF = `${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`;
const ITEM = 'NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR';

const ENTITY_PARAMS =
  'query, facet, offset, rows, sort, facet.limit, minDocs, cursorMark, afterId, person_name_fct, person_place_fct, person_gender_fct, person_occupation_fct, ' +
  'id, preferredName, variantName, professionOrOccupation, placeOfBirth, placeOfDeath, type, count, dateOfBirth_de, dateOfDeath_de (and oauth_consumer_key)';

const unknown = (shown: string, known: string) =>
  JSON.stringify({
    status: 400,
    name: 'UnknownParameterException',
    message: `The query parameter ${shown} is not one this operation takes, so it would be ignored. Its parameters: ${known}. Check the spelling (names are case-sensitive), or see /openapi.json.`,
  });

const unsupported = (name: string, instead: string) =>
  JSON.stringify({
    status: 400,
    name: 'UnsupportedParameterException',
    message: `The query parameter '${name}' of the DDB API is not supported here, so it would be ignored. ${instead}`,
  });

const NOT_SHOWN = "(its name is not shown: it is not a plain name of at most 32 letters, digits, '_', '.', '-')";

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  const withApp = async (run: (t: TestApp) => Promise<void>) => {
    const t = await startTestApp(backend, { load: [`${CORTEX_DIR}${ITEM}.xml`], loadEntities: [EF] });
    try {
      await run(t);
    } finally {
      await t.close();
    }
  };

  test(`${b} /entities?q=Goethe is a 400 naming q and listing the parameters, not every person`, () =>
    withApp(async (t) => {
      const res = await t.app.inject({ url: '/entities?q=Goethe', headers: t.json });
      assert.equal(res.statusCode, 400);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(res.body, unknown("'q'", ENTITY_PARAMS));
      // Names are case-sensitive, as on the real service.
      const upper = await t.app.inject({ url: '/entities?Query=Goethe', headers: t.json });
      assert.equal(upper.body, unknown("'Query'", ENTITY_PARAMS));
      // XML clients get the same in the error document.
      const xml = await t.app.inject({ url: '/items/NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR/aip?format=xml', headers: t.xml });
      assert.equal(xml.statusCode, 400);
      assert.match(
        xml.body,
        /<name>UnknownParameterException<\/name><message>The query parameter 'format' is not one this operation takes, so it would be ignored\. Its parameters: lang \(and oauth_consumer_key\)\./,
      );
    }));

  test(`${b} every route checks its parameters; OAuth 1.0 parameters are always allowed`, () =>
    withApp(async (t) => {
      const none = 'none (oauth_consumer_key aside)';
      // The package and its parts take `lang`, the label language the DDB's clients send.
      const lang = 'lang (and oauth_consumer_key)';
      const cases: Array<[string, string, string]> = [
        [`/items/${ITEM}/aip?foo=1`, "'foo'", lang],
        [`/items/${ITEM}?foo=1`, "'foo'", lang],
        [`/items/${ITEM}/parents?foo=1`, "'foo'", none],
        [`/items/${ITEM}/children?start=10`, "'start'", 'offset, rows (and oauth_consumer_key)'],
        [`/items/${ITEM}/view?foo`, "'foo'", lang],
        [`/items/${ITEM}/source/record?foo=1`, "'foo'", lang],
        ['/status?verbose=1', "'verbose'", none],
        [`/items/${ITEM}/iiif?foo=1`, "'foo'", none],
      ];
      for (const [url, shown, known] of cases) {
        const res = await t.app.inject({ url, headers: t.json });
        assert.equal(res.statusCode, 400, url);
        assert.equal(res.body, unknown(shown, known), url);
        const head = await t.app.inject({ method: 'HEAD', url, headers: t.json });
        assert.equal(head.statusCode, 400, `HEAD ${url}`);
      }
      const version = await t.app.inject({ url: '/version?x=1', headers: { accept: 'text/plain' } });
      assert.equal(version.statusCode, 400);
      assert.equal(version.body, unknown("'x'", 'none (oauth_consumer_key aside)'));
      // The key in the query, and the other OAuth 1.0 protocol parameters (RFC 5849 section 3.5.3).
      const oauth = await t.app.inject({
        url: `/items/${ITEM}/parents?oauth_consumer_key=${t.key}&oauth_nonce=abc&oauth_timestamp=1&oauth_signature_method=PLAINTEXT&oauth_version=1.0`,
        headers: { accept: 'application/json' },
      });
      assert.equal(oauth.statusCode, 200);
      const children = await t.app.inject({ url: `/items/${ITEM}/children?rows=1&offset=0`, headers: t.json });
      assert.equal(children.statusCode, 200);
    }));

  test(`${b} a name that could be a key is not shown, and no value ever is`, () =>
    withApp(async (t) => {
      const secret = 'Zq3v9fKp2mXw8rTn4bYc7dLs1hGj6uEa0oRi5tNy2kQ';
      for (const url of [`/entities?${secret}`, `/entities?${secret}=1`, `/entities?a%20b=1`]) {
        const res = await t.app.inject({ url, headers: t.json });
        assert.equal(res.statusCode, 400, url);
        assert.equal(res.body, unknown(NOT_SHOWN, ENTITY_PARAMS), url);
      }
      const valued = await t.app.inject({ url: `/entities?api_key=${secret}`, headers: t.json });
      assert.equal(valued.body, unknown("'api_key'", ENTITY_PARAMS));
      assert.ok(!valued.body.includes(secret));
    }));

  test(`${b} 2.6.1's per-field parameters of /entities filter as field queries do`, () =>
    withApp(async (t) => {
      const same = async (params: string, query: string) => {
        const a = await t.app.inject({ url: `/entities?${params}`, headers: t.json });
        const q = await t.app.inject({ url: `/entities?query=${encodeURIComponent(query)}`, headers: t.json });
        assert.equal(a.statusCode, 200, params);
        assert.equal(a.body, q.body, params);
        return a.json();
      };
      const zadek = await same('preferredName=Ignaz%20Zadek', 'preferredName:"Ignaz Zadek"');
      assert.equal(zadek.numberOfResults, 1);
      assert.equal(zadek.results[0].docs[0].id, 'http://d-nb.info/gnd/124963463');
      await same('id=http%3A%2F%2Fd-nb.info%2Fgnd%2F124963463', 'id:"http://d-nb.info/gnd/124963463"');
      await same('variantName=I.%20Zadek', 'variantName:"I. Zadek"');
      await same('professionOrOccupation=Arzt&dateOfBirth_de=1858', 'professionOrOccupation:"Arzt" AND dateOfBirth:"1858"');
      await same('dateOfDeath_de=1931&type=person', 'type:"person" AND dateOfDeath:"1931"');
      await same('count=0', 'count:0');
      // Together with query and with each other: every one must hold.
      const both = await same('query=Arzt&preferredName=Zadek', 'Arzt AND preferredName:"Zadek"');
      assert.equal(both.numberOfResults, 1);
      const repeated = await t.app.inject({ url: '/entities?preferredName=Ignaz&preferredName=Nobody', headers: t.json });
      assert.equal(repeated.json().numberOfResults, 0);
      const none = await same('placeOfBirth=Atlantis', 'placeOfBirth:"Atlantis"');
      assert.equal(none.numberOfResults, 0);
    }));

  test(`${b} per-field parameters with no counterpart, and bad values, say what to use instead`, () =>
    withApp(async (t) => {
      const cases: Array<[string, string]> = [
        ['thumbnail=x', unsupported('thumbnail', 'Thumbnails are not searchable; they are part of the entity documents returned.')],
        [
          'count_sec_01=3',
          unsupported(
            'count_sec_01',
            'Counts per sector are not kept: count (the items of any sector that refer to the person) is, e.g. count=3 or query=count:[1 TO *].',
          ),
        ],
        [
          'count_sec_07=3',
          unsupported(
            'count_sec_07',
            'Counts per sector are not kept: count (the items of any sector that refer to the person) is, e.g. count=3 or query=count:[1 TO *].',
          ),
        ],
        [
          'dateOfBirth_en=August%2028%2C%201749',
          unsupported(
            'dateOfBirth_en',
            'Dates are kept in the German form of the GND (28. August 1749): use dateOfBirth_de=<date>, or query=dateOfBirth:[1749 TO 1749] for a year.',
          ),
        ],
        [
          'variant_id=x',
          unsupported('variant_id', 'Only the preferred id of a person is kept: use id=<GND URI> (http and https forms are the same).'),
        ],
        ['sort_field=x', unsupported('sort_field', 'Use sort=RELEVANCE, ALPHA_ASC, ALPHA_DESC, COUNT_DESC or RANDOM_<seed>.')],
        [
          'spell_check=true',
          unsupported(
            'spell_check',
            'Spelling corrections come back in correctedQuery: the query with its misspelt terms corrected, when that finds more.',
          ),
        ],
        [
          'count=many',
          JSON.stringify({
            status: 400,
            name: 'InvalidSearchException',
            message: 'count must be a whole number in the digits 0-9, e.g. count=3; for a range use query=count:[1 TO *].',
          }),
        ],
        [
          'preferredName=',
          JSON.stringify({
            status: 400,
            name: 'InvalidSearchException',
            message: 'preferredName is empty: give the text to look for, or leave the parameter out.',
          }),
        ],
      ];
      for (const [params, body] of cases) {
        const res = await t.app.inject({ url: `/entities?${params}`, headers: t.json });
        assert.equal(res.statusCode, 400, params);
        assert.equal(res.body, body, params);
      }
    }));
}
