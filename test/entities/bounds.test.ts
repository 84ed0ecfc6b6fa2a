/**
 * No search can hold the server (docs/decisions.md "Bounded searches"): hostile
 * queries that once did are answered, each limit of the `search` config is a 400 of the
 * catalog, a search over its budget is the documented 503, and while
 * expensive searches run, item requests are answered before them.
 * Nothing here reads a clock: a search that ran past its budget would be a
 * 503, and one that held the event loop would answer before the item requests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { CHAPTER_ID, CORTEX_DIR, FIXTURES } from '../helpers/paths.js';

const EF = `${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`;
const get = async (t: TestApp, url: string) => t.app.inject({ url, headers: t.json });
const entities = (t: TestApp, query: string) => get(t, `/entities?query=${encodeURIComponent(query)}`);

/** A query of 100 different leading wildcards: each reads the whole vocabulary. `k` picks a different set. */
function expensive(k: number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const patterns: string[] = [];
  for (let i = k * 100; i < (k + 1) * 100; i++) patterns.push(`*q${letters[Math.floor(i / 26) % 26]}${letters[i % 26]}*`);
  return patterns.join(' OR ');
}

const errorBody = (status: number, name: string, message: string) => JSON.stringify({ status, name, message });

const OVER_BUDGET = (ms: number) =>
  errorBody(
    503,
    'SearchTimeoutException',
    `The search was stopped after ${ms} ms, its time budget. Narrow the query: fewer wildcards, more letters before each * or ?, fewer OR alternatives; or retry after ${Math.max(1, Math.ceil(ms / 1000))} seconds (see the Retry-After header).`,
  );

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} the hostile wildcards that once held the server are answered, exactly as their plain equivalents`, async () => {
    const t = await startTestApp(backend, { loadEntities: [EF] });
    try {
      // 33 repeats of *?*?…*?z: no word has that many letters, so no hit.
      const nothing = await entities(t, 'zzqqxxnothing');
      assert.equal(nothing.json().numberOfResults, 0);
      const stars = await entities(t, '*?*?*?*?*?*?*?*?*?*?*?*?*?*?z'.repeat(33));
      assert.equal(stars.statusCode, 200);
      assert.equal(stars.body, nothing.body);
      // *qx* OR ×110: the same as *qx* once.
      const once = await entities(t, '*qx*');
      const repeated = await entities(t, Array.from({ length: 110 }, () => '*qx*').join(' OR '));
      assert.equal(repeated.statusCode, 200);
      assert.equal(repeated.body, once.body);
      // A wildcard that matches words: the same as the words it stands for.
      const ids = async (query: string) => {
        const res = await get(t, `/entities?rows=1000&query=${encodeURIComponent(query)}`);
        return (res.json().results[0].docs as Array<{ id: string }>).map((d) => d.id).sort();
      };
      const words = await ids(
        'wien OR wiesbaden OR wilhelmshaven OR wilson OR winnenden OR winsen OR winston OR wiseman OR witman OR wittlin',
      );
      assert.ok(words.length > 0);
      assert.deepEqual(await ids('wi*n'), words);
    } finally {
      await t.close();
    }
  });

  test(`${b} each limit of the search config is a 400 of the catalog that says what to narrow`, async () => {
    const t = await startTestApp(backend, { loadEntities: [EF], flags: { search: { maxExpansionsPerQuery: 30 } } });
    try {
      const cases: Array<[string, string]> = [
        [
          Array.from({ length: 129 }, () => 'goethe').join(' '),
          errorBody(
            400,
            'TooManyClausesException',
            'The query has 129 terms; at most 128 are allowed. Use fewer OR alternatives, or split the search into several.',
          ),
        ],
        [
          '*e*',
          errorBody(
            400,
            'WildcardTooBroadException',
            "The wildcard '*e*' matches more than 1000 different words; put more letters before the first * or ?.",
          ),
        ],
        [
          'w*n OR wi*n',
          errorBody(
            400,
            'QueryTooBroadException',
            'The wildcards of the query together match more than 30 different words; use fewer wildcards, or put more letters before each * or ?.',
          ),
        ],
      ];
      for (const [query, body] of cases) {
        const res = await entities(t, query);
        assert.equal(res.statusCode, 400, query.slice(0, 40));
        assert.equal(res.body, body, query.slice(0, 40));
      }
      // Each on its own is within the limits.
      assert.equal((await entities(t, 'w*n')).statusCode, 200);
      assert.equal((await entities(t, Array.from({ length: 128 }, () => 'goethe').join(' '))).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  test(`${b} a search over search.timeBudgetMs is the documented 503 with Retry-After`, async () => {
    const t = await startTestApp(backend, { loadEntities: [EF], flags: { search: { timeBudgetMs: 1 } } });
    try {
      const res = await entities(t, expensive(0));
      assert.equal(res.statusCode, 503);
      assert.equal(res.headers['retry-after'], '1');
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(res.body, OVER_BUDGET(1));
    } finally {
      await t.close();
    }
  });

  test(`${b} with five expensive searches in flight, parents and aip are answered before any of them`, async () => {
    // The server's own budget (the test apps have a longer one): some of these searches pass it.
    const t = await startTestApp(backend, { load: [CORTEX_DIR], loadEntities: [EF], flags: { search: { timeBudgetMs: 3000 } } });
    try {
      // A real socket: a search that held the event loop would also hold the requests read after it.
      const origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
      const order: string[] = [];
      const fetchAs = (name: string, path: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = request(`${origin}${path}`, { headers: t.json, agent: false }, (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () => {
              order.push(name);
              resolve({ status: res.statusCode!, body });
            });
          });
          req.on('error', reject);
          req.end();
        });
      const parents = `/items/${CHAPTER_ID}/parents`;
      const cached = await fetchAs('warm-up', parents);
      assert.equal(cached.status, 200);
      const searches = [0, 1, 2, 3, 4].map((k) => fetchAs(`search ${k}`, `/entities?query=${encodeURIComponent(expensive(k))}`));
      const [p, a] = await Promise.all([fetchAs('parents', parents), fetchAs('aip', `/items/${CHAPTER_ID}/aip`)]);
      assert.equal(p.body, cached.body);
      assert.equal(a.status, 200);
      for (const res of await Promise.all(searches)) {
        // Within the budget an answer, past it the 503: never a held connection.
        if (res.status === 503) assert.equal(res.body, OVER_BUDGET(3000));
        else assert.equal(res.status, 200);
      }
      assert.deepEqual(order.slice(1, 3).sort(), ['aip', 'parents'], order.join(', '));
    } finally {
      await t.close();
    }
  });
}
