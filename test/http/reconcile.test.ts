/**
 * /reconcile, the W3C Reconciliation Service API 0.2 (docs/reconciliation.md), on both
 * backends: whole bodies of the manifest, query batches (GET and POST), suggest, property
 * proposals, data extension and preview, each answer (and each request we send) checked
 * against the specification's JSON Schemas (test/reconcile/schemas/); the key as on every
 * read route (the manifest without one); CORS open; bad input a 4xx that says what to fix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { FIXTURES, HOPE_DIR, CORTEX_DIR } from '../helpers/paths.js';
import { reconcileProblems, type ReconcileSchemaName } from '../helpers/reconcileSchemas.js';

const HOST = 'heritage.test';

function manifest(authentication: boolean, prefix = '') {
  const service = `http://${HOST}${prefix}/reconcile`;
  return {
    versions: ['0.2'],
    name: 'heritage-api: persons, institutions and objects',
    identifierSpace: `${service}/preview?id=`,
    schemaSpace: 'http://www.europeana.eu/schemas/edm/',
    serviceVersion: '0.1.0',
    defaultTypes: [
      { id: 'person', name: 'Person' },
      { id: 'institution', name: 'Institution' },
      { id: 'item', name: 'Object' },
    ],
    view: { url: `${service}/preview?id={{id}}` },
    preview: { url: `${service}/preview?id={{id}}`, width: 400, height: 200 },
    suggest: {
      entity: { service_url: service, service_path: '/suggest/entity' },
      type: { service_url: service, service_path: '/suggest/type' },
      property: { service_url: service, service_path: '/suggest/property' },
    },
    extend: { propose_properties: { service_url: service, service_path: '/properties' }, property_settings: [] },
    batchSize: 100,
    ...(authentication ? { authentication: { type: 'apiKey', name: 'oauth_consumer_key', in: 'query' } } : {}),
  };
}

const BATCH = {
  q0: { query: 'Goethe, Johann Wolfgang von', type: 'person', limit: 2, properties: [{ pid: 'dateOfBirth', v: '1749' }] },
  q1: { query: 'Goehte, Johann Wolfgang', type: ['person'], limit: 1 },
  q2: { query: 'Combat (1961)', type: 'item', limit: 1, properties: [{ pid: 'date', v: 1961 }] },
  q3: { query: 'Deutsche Fotothek', type: 'institution', limit: 1 },
  q4: { query: 'http://d-nb.info/gnd/118540238' },
};

const EXTEND = {
  ids: ['http://d-nb.info/gnd/118540238', 'ZLUM2OHST2VT44RSZEQDECPKB4V52MZZ', 'CJY7MSLPOPB7FTPC7JM5K2GGM5PBGLYI', 'unknown'],
  properties: [{ id: 'dateOfBirth' }, { id: 'placeOfDeath' }, { id: 'provider' }, { id: 'date' }, { id: 'state' }, { id: 'itemCount' }],
};

const BATCH_RESULT = {
  q0: {
    result: [
      {
        id: 'http://d-nb.info/gnd/118540238',
        name: 'Johann Wolfgang von Goethe',
        description: '1749-08-28–1832-03-22; Naturwissenschaftler, Zeichner, Theaterintendant',
        type: [{ id: 'person', name: 'Person' }],
        score: 110,
        features: [
          { id: 'name_similarity', value: 1 },
          { id: 'preferred_name_exact', value: true },
          { id: 'properties_matched', value: 1 },
          { id: 'properties_contradicted', value: 0 },
          { id: 'date_matched', value: true },
        ],
        match: true,
      },
      {
        id: 'http://d-nb.info/gnd/128968648',
        name: 'Hans Wolfgang Behm',
        description: '1890–',
        type: [{ id: 'person', name: 'Person' }],
        score: 32.69,
        features: [
          { id: 'name_similarity', value: 0.577 },
          { id: 'preferred_name_exact', value: false },
          { id: 'properties_matched', value: 0 },
          { id: 'properties_contradicted', value: 1 },
          { id: 'date_matched', value: false },
        ],
        match: false,
      },
    ],
  },
  q1: {
    result: [
      {
        id: 'http://d-nb.info/gnd/118540238',
        name: 'Johann Wolfgang von Goethe',
        description: '1749-08-28–1832-03-22; Naturwissenschaftler, Zeichner, Theaterintendant',
        type: [{ id: 'person', name: 'Person' }],
        score: 93.55,
        features: [
          { id: 'name_similarity', value: 0.935 },
          { id: 'preferred_name_exact', value: false },
          { id: 'properties_matched', value: 0 },
          { id: 'properties_contradicted', value: 0 },
          { id: 'date_matched', value: false },
        ],
        match: false,
      },
    ],
  },
  q2: {
    result: [
      {
        id: 'ZLUM2OHST2VT44RSZEQDECPKB4V52MZZ',
        name: 'Combat (1961)',
        description: 'mid-level; 1961; Amsab-Institute of Social History',
        type: [{ id: 'item', name: 'Object' }],
        score: 110,
        features: [
          { id: 'name_similarity', value: 1 },
          { id: 'preferred_name_exact', value: true },
          { id: 'properties_matched', value: 1 },
          { id: 'properties_contradicted', value: 0 },
          { id: 'date_matched', value: true },
        ],
        match: true,
      },
    ],
  },
  q3: {
    result: [
      {
        id: 'CJY7MSLPOPB7FTPC7JM5K2GGM5PBGLYI',
        name: 'Deutsche Fotothek',
        description: 'Sachsen; 1 items',
        type: [{ id: 'institution', name: 'Institution' }],
        score: 100,
        features: [
          { id: 'name_similarity', value: 1 },
          { id: 'preferred_name_exact', value: true },
          { id: 'properties_matched', value: 0 },
          { id: 'properties_contradicted', value: 0 },
        ],
        match: true,
      },
    ],
  },
  q4: {
    result: [
      {
        id: 'http://d-nb.info/gnd/118540238',
        name: 'Johann Wolfgang von Goethe',
        description: '1749-08-28–1832-03-22; Naturwissenschaftler, Zeichner, Theaterintendant',
        type: [{ id: 'person', name: 'Person' }],
        score: 100,
        features: [{ id: 'id_match', value: true }],
        match: true,
      },
    ],
  },
};
const SUGGEST_GOETHE = {
  result: [
    {
      id: 'http://d-nb.info/gnd/118540238',
      name: 'Johann Wolfgang von Goethe',
      description: '1749-08-28–1832-03-22; Naturwissenschaftler, Zeichner, Theaterintendant',
      notable: [{ id: 'person', name: 'Person' }],
    },
    {
      id: '6MZ5APQTMS5AH2UGHRWBKVAOZ7LSCCMS',
      name: 'Frankfurter Goethe-Haus. Freies Deutsches Hochstift',
      description: 'Library; 0 items',
      notable: [{ id: 'institution', name: 'Institution' }],
    },
    {
      id: 'YNKIAG7DFC4HZOATBPG75IFEY5BUDYUS',
      name: 'Frankfurter Goethe-Haus. Freies Deutsches Hochstift',
      description: 'Museum; 2 items',
      notable: [{ id: 'institution', name: 'Institution' }],
    },
    {
      id: '4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22',
      name: 'Cornelie Goethe',
      description: 'Druckgraphik; 1864–1877; Leipzig; Frankfurter Goethe-Haus. Freies Deutsches Hochstift',
      notable: [{ id: 'item', name: 'Object' }],
    },
    {
      id: 'TNPFDKO2VDGBZ72RWC6RKDNZYZQZP3XK',
      name: 'Goethe',
      description: 'Druckgraphik; 1864–1877; Leipzig; Frankfurter Goethe-Haus. Freies Deutsches Hochstift',
      notable: [{ id: 'item', name: 'Object' }],
    },
  ],
};
const SUGGEST_GOETHE_3 = {
  result: [
    {
      id: '4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22',
      name: 'Cornelie Goethe',
      description: 'Druckgraphik; 1864–1877; Leipzig; Frankfurter Goethe-Haus. Freies Deutsches Hochstift',
      notable: [{ id: 'item', name: 'Object' }],
    },
    {
      id: 'TNPFDKO2VDGBZ72RWC6RKDNZYZQZP3XK',
      name: 'Goethe',
      description: 'Druckgraphik; 1864–1877; Leipzig; Frankfurter Goethe-Haus. Freies Deutsches Hochstift',
      notable: [{ id: 'item', name: 'Object' }],
    },
  ],
};
const SUGGEST_DATE = {
  result: [
    { id: 'dateOfBirth', name: 'Date of birth', description: 'Person' },
    { id: 'dateOfDeath', name: 'Date of death', description: 'Person' },
    { id: 'date', name: 'Date (year)', description: 'Object' },
  ],
};
const PROPOSALS_ITEM = {
  type: 'item',
  limit: 3,
  properties: [
    { id: 'title', name: 'Title' },
    { id: 'date', name: 'Date (year)' },
    { id: 'place', name: 'Place' },
  ],
};
const EXTEND_RESULT = {
  meta: [
    { id: 'dateOfBirth', name: 'Date of birth' },
    { id: 'placeOfDeath', name: 'Place of death' },
    { id: 'provider', name: 'Data provider', type: { id: 'institution', name: 'Institution' } },
    { id: 'date', name: 'Date (year)' },
    { id: 'state', name: 'Federal state' },
    { id: 'itemCount', name: 'Number of items about or by the person' },
  ],
  rows: {
    'http://d-nb.info/gnd/118540238': {
      dateOfBirth: [{ str: '1749-08-28' }],
      placeOfDeath: [{ str: 'Weimar' }],
      provider: [],
      date: [],
      state: [],
      itemCount: [{ int: 2 }],
    },
    ZLUM2OHST2VT44RSZEQDECPKB4V52MZZ: {
      dateOfBirth: [],
      placeOfDeath: [],
      provider: [{ id: 'name:Amsab-Institute of Social History', name: 'Amsab-Institute of Social History' }],
      date: [{ str: '1961' }],
      state: [],
      itemCount: [],
    },
    CJY7MSLPOPB7FTPC7JM5K2GGM5PBGLYI: {
      dateOfBirth: [],
      placeOfDeath: [],
      provider: [],
      date: [],
      state: [{ str: 'Sachsen' }],
      itemCount: [],
    },
    unknown: { dateOfBirth: [], placeOfDeath: [], provider: [], date: [], state: [], itemCount: [] },
  },
};

const PREVIEW =
  '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Combat (1961)</title><style>body{font:13px/1.4 sans-serif;margin:6px}h1{font-size:15px;margin:0 0 4px}p{margin:0 0 4px;color:#555}th{text-align:left;padding-right:8px;vertical-align:top}</style></head><body>' +
  '<h1><a href="http://heritage.test/item/ZLUM2OHST2VT44RSZEQDECPKB4V52MZZ" target="_blank" rel="noopener">Combat (1961)</a></h1><p>Object · ZLUM2OHST2VT44RSZEQDECPKB4V52MZZ</p>' +
  "<table><tr><th>Date (year)</th><td>1961</td></tr><tr><th>Data provider</th><td>Amsab-Institute of Social History; HOPE - Heritage of the People's Europe</td></tr></table></body></html>";

function valid(schema: ReconcileSchemaName, value: unknown): void {
  assert.deepEqual(reconcileProblems(schema, value), [], `${schema}: ${JSON.stringify(value).slice(0, 300)}`);
}

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  const withApp = async (run: (t: TestApp) => Promise<void>, anonymousRead = false) => {
    const t = await startTestApp(backend, {
      load: [CORTEX_DIR, HOPE_DIR],
      loadEntities: [`${FIXTURES}persons`],
      flags: { auth: { anonymousRead } },
    });
    try {
      await run(t);
    } finally {
      await t.close();
    }
  };
  const inject = async (
    t: TestApp,
    url: string,
    options: { method?: 'GET' | 'POST'; key?: boolean; headers?: Record<string, string>; payload?: string } = {},
  ) => {
    const key = options.key ?? true;
    return t.app.inject({
      method: options.method ?? 'GET',
      url,
      headers: {
        host: HOST,
        origin: 'https://refine.example',
        ...(key ? { authorization: t.json.authorization! } : {}),
        ...options.headers,
      },
      ...(options.payload === undefined ? {} : { payload: options.payload }),
    });
  };
  const getJson = async (t: TestApp, url: string, schema: ReconcileSchemaName) => {
    const r = await inject(t, url);
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(r.headers['access-control-allow-origin'], '*');
    const body: unknown = r.json();
    valid(schema, body);
    return body;
  };

  test(`${b} the manifest: whole body, valid, without a key; authentication names the key parameter`, async () => {
    await withApp(async (t) => {
      const r = await inject(t, '/reconcile', { key: false });
      assert.equal(r.statusCode, 200, r.body);
      assert.equal(r.headers['access-control-allow-origin'], '*');
      assert.deepEqual(r.json(), manifest(true));
      valid('manifest', r.json());
      // Under /2 its URLs are under /2.
      const two = await inject(t, '/2/reconcile', { key: false });
      assert.deepEqual(two.json(), manifest(true, '/2'));
      // The schema does check authentication: an unknown scheme is refused.
      assert.notDeepEqual(reconcileProblems('manifest', { ...manifest(true), authentication: { foo: 'bar' } }), []);
    });
  });

  test(`${b} query batches by GET and POST: whole bodies, valid; match for an exact name with its life date`, async () => {
    await withApp(async (t) => {
      valid('reconciliation-query-batch', BATCH);
      const body = await getJson(t, `/reconcile?queries=${encodeURIComponent(JSON.stringify(BATCH))}`, 'reconciliation-result-batch');
      assert.deepEqual(body, BATCH_RESULT);
      const post = await inject(t, '/reconcile', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `queries=${encodeURIComponent(JSON.stringify(BATCH))}`,
      });
      assert.equal(post.statusCode, 200, post.body);
      assert.equal(post.headers['access-control-allow-origin'], '*');
      assert.deepEqual(post.json(), BATCH_RESULT);
      // The same name without a life date is no match, and with a wrong one it scores lower.
      const without = (await getJson(
        t,
        `/reconcile?queries=${encodeURIComponent(JSON.stringify({ a: { query: 'Johann Wolfgang von Goethe', type: 'person', limit: 1 }, b: { query: 'Johann Wolfgang von Goethe', type: 'person', limit: 1, properties: [{ pid: 'dateOfDeath', v: '1900' }] } }))}`,
        'reconciliation-result-batch',
      )) as Record<string, { result: Array<{ id: string; score: number; match: boolean }> }>;
      assert.deepEqual(
        [without.a!.result[0], without.b!.result[0]].map((c) => [c!.id, c!.score, c!.match]),
        [
          ['http://d-nb.info/gnd/118540238', 100, false],
          ['http://d-nb.info/gnd/118540238', 75, false],
        ],
      );
    });
  });

  test(`${b} suggest, property proposals, data extension and preview: whole bodies, valid`, async () => {
    await withApp(async (t) => {
      assert.deepEqual(await getJson(t, '/reconcile/suggest/entity?prefix=Goethe', 'suggest-entities-response'), SUGGEST_GOETHE);
      assert.deepEqual(await getJson(t, '/reconcile/suggest/entity?prefix=Goethe&cursor=3', 'suggest-entities-response'), SUGGEST_GOETHE_3);
      assert.deepEqual(await getJson(t, '/reconcile/suggest/entity?prefix=118540238&type=person', 'suggest-entities-response'), {
        result: [SUGGEST_GOETHE.result[0]],
      });
      assert.deepEqual(await getJson(t, '/reconcile/suggest/property?prefix=date', 'suggest-properties-response'), SUGGEST_DATE);
      assert.deepEqual(await getJson(t, '/reconcile/suggest/type?prefix=per', 'suggest-types-response'), {
        result: [
          { id: 'person', name: 'Person', description: 'A person of the authority file (GND), with life dates, places and occupations' },
        ],
      });
      assert.deepEqual(await getJson(t, '/reconcile/properties?type=item&limit=3', 'data-extension-property-proposal'), PROPOSALS_ITEM);
      valid('data-extension-query', EXTEND);
      assert.deepEqual(
        await getJson(t, `/reconcile?extend=${encodeURIComponent(JSON.stringify(EXTEND))}`, 'data-extension-response'),
        EXTEND_RESULT,
      );
      const post = await inject(t, '/reconcile', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
        payload: `extend=${encodeURIComponent(JSON.stringify(EXTEND))}`,
      });
      assert.deepEqual(post.json(), EXTEND_RESULT);
      const preview = await inject(t, '/reconcile/preview?id=ZLUM2OHST2VT44RSZEQDECPKB4V52MZZ');
      assert.equal(preview.statusCode, 200);
      assert.equal(preview.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(preview.headers['access-control-allow-origin'], '*');
      assert.equal(preview.body, PREVIEW);
    });
  });

  test(`${b} keys: queries need one unless auth.anonymousRead; the manifest then names no authentication`, async () => {
    await withApp(async (t) => {
      const q = `/reconcile?queries=${encodeURIComponent(JSON.stringify({ q: { query: 'Goethe' } }))}`;
      for (const url of [q, '/reconcile/suggest/entity?prefix=Go', '/reconcile/preview?id=x', '/reconcile/properties?type=person']) {
        const r = await inject(t, url, { key: false });
        assert.equal(r.statusCode, 401, url);
        assert.equal(r.headers['access-control-allow-origin'], '*');
      }
      const post = await inject(t, '/reconcile', {
        method: 'POST',
        key: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'queries={}',
      });
      assert.equal(post.statusCode, 401);
      // A wrong key is a 401 too (the API's "Authentication"), not the 403 of the other routes.
      const wrong = 'not-a-key-0123456789';
      for (const url of [q, '/reconcile/suggest/entity?prefix=Go', '/reconcile/preview?id=x', '/reconcile/properties?type=person']) {
        const r = await inject(t, `${url}&oauth_consumer_key=${wrong}`, { key: false });
        assert.equal(r.statusCode, 401, url);
        assert.equal(r.headers['access-control-allow-origin'], '*');
        assert.deepEqual(r.json(), {
          name: 'NotAuthorizedException',
          status: 401,
          message:
            "The API key is unknown or revoked. Send a valid key as the manifest's security scheme says (oauth_consumer_key=<API key>); the operator of this service gives keys.",
        });
      }
      const wrongPost = await inject(t, '/reconcile', {
        method: 'POST',
        key: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `OAuth oauth_consumer_key="${wrong}"` },
        payload: 'queries={}',
      });
      assert.equal(wrongPost.statusCode, 401, wrongPost.body);
      assert.equal(wrongPost.body.includes(wrong), false);
      // The key as the manifest says: in the query.
      const byQuery = await inject(t, `${q}&oauth_consumer_key=${t.key}`, { key: false });
      assert.equal(byQuery.statusCode, 200, byQuery.body);
      assert.equal(byQuery.body.includes(t.key), false);
    });
    await withApp(async (t) => {
      assert.deepEqual((await inject(t, '/reconcile', { key: false })).json(), manifest(false));
      const r = await inject(
        t,
        `/reconcile?queries=${encodeURIComponent(JSON.stringify({ q: { query: 'Deutsche Fotothek', type: 'institution', limit: 1 } }))}`,
        { key: false },
      );
      assert.equal(r.statusCode, 200, r.body);
      assert.deepEqual(r.json(), { q: BATCH_RESULT.q3 });
    }, true);
  });

  test(`${b} bad input: a 4xx with what to fix, never a 500`, async () => {
    await withApp(async (t) => {
      const bad = async (url: string, status: number, message: string, options: Parameters<typeof inject>[2] = {}) => {
        const r = await inject(t, url, options);
        assert.equal(r.statusCode, status, `${url}: ${r.body}`);
        assert.equal(r.headers['access-control-allow-origin'], '*');
        assert.deepEqual(r.json(), {
          status,
          name: status === 413 ? 'PayloadTooLargeException' : status === 404 ? 'EntityNotFoundException' : 'BadRequestException',
          message,
        });
      };
      const q = (batch: unknown) => `/reconcile?queries=${encodeURIComponent(typeof batch === 'string' ? batch : JSON.stringify(batch))}`;
      await bad(
        q('{"q0": {"query": "Goethe"'),
        400,
        `Bad request: queries is not JSON: it goes wrong at character 26. Send queries= with a JSON text, e.g. queries={"q0":{"query":"Goethe","type":"person"}}.`,
      );
      await bad(
        q('{"q0": '),
        400,
        'Bad request: queries is not JSON: it ends too early. Send queries= with a JSON text, e.g. queries={"q0":{"query":"Goethe","type":"person"}}.',
      );
      await bad(q([]), 400, 'Bad request: queries is not a JSON object. Send an object of queries by id, e.g. {"q0":{"query":"Goethe"}}.');
      await bad(q({ q0: {} }), 400, 'Bad request: queries.q0 has neither a query nor properties; send at least one of them.');
      await bad(q({ q0: { query: '' } }), 400, 'Bad request: queries.q0.query is not a non-empty string.');
      await bad(
        q({ q0: { props: [] } }),
        400,
        "Bad request: queries.q0 has 'props', which a query does not take. A query takes query, type, limit, properties and type_strict.",
      );
      await bad(
        q({ q0: { query: 'x', type: 'place' } }),
        400,
        "Bad request: queries.q0.type 'place' is not a type of this service. The types are person, institution, item.",
      );
      await bad(q({ q0: { query: 'x', limit: 0 } }), 400, 'Bad request: queries.q0.limit is not a whole number from 1 to 50.');
      await bad(
        q({ q0: { query: 'x', type: 'item', properties: [{ pid: 'dateOfBirth', v: '1749' }] } }),
        400,
        "Bad request: queries.q0.properties[0].pid 'dateOfBirth' is not a property to match item by. Use one of date, place, provider, objectType, keyword.",
      );
      await bad(
        q({ q0: { query: 'x', properties: [{ pid: 'place', v: [{ name: 'no id' }] }] } }),
        400,
        'Bad request: queries.q0.properties[0].v[0] is neither a string, a number, a boolean nor an entity {"id": …, "name": …}.',
      );
      const big = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`q${i}`, { query: 'Goethe' }]));
      await bad(
        '/reconcile',
        413,
        "The reconciliation request holds 101 queries or ids; at most 100 are taken at once (the manifest's batchSize). Send them in batches of 100 or fewer.",
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `queries=${encodeURIComponent(JSON.stringify(big))}`,
        },
      );
      await bad(
        '/reconcile',
        400,
        'Bad request: a POST to /reconcile carries queries= or extend= as application/x-www-form-urlencoded (Reconciliation API 0.2), not application/json.',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(BATCH),
        },
      );
      await bad('/reconcile', 400, 'Bad request: the form has neither queries= nor extend=; send one of them.', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      await bad(
        '/reconcile?query=Goethe',
        400,
        "Bad request: 'query' is not a parameter of this reconciliation operation; it takes queries, extend (docs/reconciliation.md).",
      );
      await bad(`${q({ a: { query: 'x' } })}&extend=%7B%7D`, 400, 'Bad request: send either queries= or extend=, not both.');
      await bad(
        '/reconcile?extend=%7B%22ids%22%3A%5B%5D%7D',
        400,
        'Bad request: extend is not {"ids": [<entity id>, …], "properties": [{"id": <property id>}, …]}.',
      );
      await bad(
        `/reconcile?extend=${encodeURIComponent(JSON.stringify({ ids: ['a'], properties: [{ id: 'colour' }] }))}`,
        400,
        "Bad request: extend.properties[0].id 'colour' is not a property of this service. The properties are preferredName, variantName, dateOfBirth, dateOfDeath, placeOfBirth, placeOfDeath, professionOrOccupation, itemCount, institutionName, sector, state, website, institutionItemCount, title, date, place, provider, objectType, keyword.",
      );
      await bad('/reconcile/suggest/entity?prefix=Go&cursor=-1', 400, 'Bad request: cursor is not a whole number from 0 to 1000.');
      await bad(
        '/reconcile/suggest/entity?prefix=Go&type=place',
        400,
        "Bad request: type 'place' is not a type of this service; send one of person, institution, item.",
      );
      await bad('/reconcile/properties', 400, 'Bad request: type is missing: send type= one of person, institution, item.');
      await bad('/reconcile/preview', 400, 'Bad request: id is missing: send id=<entity id>, as a reconciliation candidate names it.');
      await bad(
        '/reconcile/preview?id=NOPE',
        404,
        "There is no person, institution or item with the id 'NOPE'. Send an id as a reconciliation candidate or suggestion names it.",
      );
    });
  });
}
