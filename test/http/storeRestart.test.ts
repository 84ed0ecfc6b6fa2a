/**
 * PostgreSQL without replicas restarted under load, as `pg_ctl stop -m immediate` and
 * `pg_ctl start` do (docs/deployment.md "When the store goes away"): while it is down every
 * route that needs it answers 503 StoreUnavailableException with Retry-After, in the route's
 * own error form (the catalog's JSON or XML, Solr's shape for the Solr select, a page for the
 * pages), never a 500; within 2 s of its return every route answers 200 with the bytes of
 * before, with no restart of heritage-api; /health/ready is 503 while it is down and 200
 * after, and says ready only when every route answers.
 *
 * The cluster is this test's own (test/helpers/postgresCluster.ts): npm test's shared one
 * must not be stopped. The node is `serve --workers 2`, as operators run it: two HTTP
 * workers and the search host, each with its own connections.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { generateApiKey, hashApiKey } from '../../src/apiKeys.js';
import { errorToXml } from '../../src/http/bodies/errorBody.js';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { createPool } from '../../src/store/postgres/db.js';
import { openPostgresStore } from '../../src/store/postgres/PostgresStore.js';
import { migratePostgres } from '../../src/store/postgres/schema.js';
import { CHAPTER_ID, FIXTURES, GOETHE_ID } from '../helpers/paths.js';
import { startCluster } from '../helpers/postgresCluster.js';
import { tempDir } from '../helpers/tempDir.js';
import { ask, serveNode, until, type Answer } from '../helpers/serveProcess.js';

/** The root of the chapter's hierarchy in the fixtures: it has children. */
const ROOT_ID = '23MBRVVDUHBFZNDCTK4SQM7KROKGVGNF';
const PERSON_GND = '118540238';
const RESTARTS = 2;
/** How soon after the database accepts connections again every route must answer 200. */
const BACK_WITHIN_MS = 2000;

const MESSAGE =
  'The store behind this server cannot answer now (unreachable or busy), so this request was not answered. Retry after 1 seconds (see the Retry-After header); /health/ready says when this server can answer again.';

type Form = 'json' | 'xml' | 'solr' | 'page';
interface Route {
  path: string;
  form: Form;
  /** Sent with the API key (whose check reads the store too), or without one (auth.anonymousRead). */
  keyed: boolean;
}

const json = (path: string) => ({ path, form: 'json' as const });
/** Every operation that reads the store, in each error form it has. */
const OPERATIONS: Array<Omit<Route, 'keyed'>> = [
  json(`/items/${GOETHE_ID}`),
  json(`/items/${GOETHE_ID}/aip`),
  { path: `/items/${GOETHE_ID}/aip`, form: 'xml' },
  json(`/items/${CHAPTER_ID}/parents`),
  { path: `/items/${CHAPTER_ID}/parents`, form: 'xml' },
  json(`/items/${ROOT_ID}/children`),
  json(`/items/${GOETHE_ID}/view`),
  { path: `/items/${GOETHE_ID}/edm`, form: 'xml' },
  json(`/items/${GOETHE_ID}/indexing-profile`),
  json(`/items/${GOETHE_ID}/binaries`),
  json(`/items/${GOETHE_ID}/source`),
  { path: `/items/${GOETHE_ID}/source/record`, form: 'xml' },
  json(`/items/${GOETHE_ID}/iiif`),
  json('/search?query=Goethe'),
  json('/search?query=*:*&facet=place_fct&rows=3'),
  json('/search/facets/place_fct?query=Goethe'),
  json('/search/suggest?query=Goe'),
  json(`/search/mlt?id=${GOETHE_ID}`),
  { path: '/search/index/search/select?q=Goethe', form: 'solr' },
  { path: '/search/index/person/select?q=Goethe', form: 'solr' },
  json('/entities?query=Goethe'),
  json('/search/person?query=Goethe'),
  json('/entities/suggest?query=Goe'),
  json('/search/organization?query=*'),
  json('/institutions'),
  json('/institutions/sectors'),
  json('/institutions/map'),
  json('/status'),
  json(`/2/items/${CHAPTER_ID}/parents`),
  { path: '/search?query=Goethe', form: 'page' },
  { path: `/item/${GOETHE_ID}`, form: 'page' },
  { path: `/item/${CHAPTER_ID}/tree`, form: 'page' },
  { path: `/person/${PERSON_GND}`, form: 'page' },
];
/** Each with a key and without one. */
const ROUTES: Route[] = OPERATIONS.flatMap((r) => [
  { ...r, keyed: true },
  { ...r, keyed: false },
]);

/** What needs no store answers as before while it is down. */
const NO_STORE: Array<[string, string]> = [
  ['/version', 'text/plain'],
  ['/openapi.json', 'application/json'],
  ['/health/live', 'application/json'],
];

const ACCEPT: Record<Form, string> = { json: 'application/json', solr: 'application/json', xml: 'application/xml', page: 'text/html' };

const named = (r: Route) => `${r.form} ${r.path} ${r.keyed ? 'with a key' : 'without a key'}`;

/** What varies between two equal answers: the time a search took. */
const comparable = (body: string) => body.replace(/"QTime":\d+/g, '"QTime":0');

/** The 503 of a store that cannot answer, in the route's own form: what every route must answer while the database is down. */
function checkUnavailable(route: Route, a: Answer): void {
  const where = named(route);
  assert.equal(a.status, 503, `${where}: ${a.body.slice(0, 300)}`);
  assert.equal(a.retryAfter, '1', where);
  switch (route.form) {
    case 'json':
      assert.deepEqual(JSON.parse(a.body), { status: 503, name: 'StoreUnavailableException', message: MESSAGE }, where);
      break;
    case 'xml':
      assert.equal(a.body, errorToXml({ status: 503, name: 'StoreUnavailableException', message: MESSAGE }), where);
      break;
    case 'solr': {
      const q = new URLSearchParams(route.path.slice(route.path.indexOf('?') + 1)).get('q');
      assert.deepEqual(
        JSON.parse(a.body),
        {
          responseHeader: { status: 503, QTime: 0, params: { q } },
          error: {
            metadata: ['error-class', 'org.apache.solr.common.SolrException', 'root-error-class', 'org.apache.solr.common.SolrException'],
            msg: MESSAGE,
            code: 503,
          },
        },
        where,
      );
      break;
    }
    case 'page':
      assert.match(a.contentType ?? '', /^text\/html/, where);
      assert.ok(a.body.includes(MESSAGE), `${where}: the page says why: ${a.body.slice(0, 300)}`);
      break;
  }
}

test('PostgreSQL restarted under load: every route 503 with Retry-After while it is down, 200 within 2 s of its return, /health/ready true throughout', async (t) => {
  const cluster = await startCluster();
  let node: Awaited<ReturnType<typeof serveNode>> | undefined;
  // The load runs until the end, or until a failure: then it must stop too, or it would keep the test alive.
  let loading = true;
  try {
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE heritage');
    await admin.end();
    const url = cluster.adminUrl.replace(/\/postgres$/, '/heritage');
    const pool = createPool({ url, max: 1 });
    await migratePostgres(pool, url);
    await pool.end();
    const key = generateApiKey();
    const store = await openPostgresStore({ url });
    try {
      await ingestItems(store, [`${FIXTURES}items/cortex`], { batchSize: 100 });
      await ingestEntities(store, [`${FIXTURES}persons`], { batchSize: 500 });
      await store.createKey('restart', hashApiKey(key));
    } finally {
      await store.close();
    }
    node = await serveNode(
      {
        HERITAGE_API_STORE_BACKEND: 'postgres',
        HERITAGE_API_STORE_URL: url,
        // The search indexes on disk go where nothing else reads them (not beside a store.path of the working directory).
        HERITAGE_API_SEARCH_PATH: tempDir('restart-search'),
        HERITAGE_API_AUTH_ANONYMOUS_READ: 'true',
        HERITAGE_API_WEB_RATE_LIMIT_MAX: '0',
      },
      2,
    );
    const base = node.base;
    // A connection the node refuses or drops (a process of it gone) is an answer too: status 0, never a 200 or a 503.
    const orRefused = (asked: Promise<Answer>) =>
      asked.catch((e: Error): Answer => ({ status: 0, contentType: undefined, retryAfter: undefined, body: `no answer: ${e.message}` }));
    const get = (r: Route) =>
      orRefused(ask(base, r.path, { accept: ACCEPT[r.form], ...(r.keyed ? { authorization: `OAuth oauth_consumer_key="${key}"` } : {}) }));
    const health = () => orRefused(ask(base, '/health/ready'));

    const before = new Map<Route, string>();
    for (const r of ROUTES) {
      const a = await get(r);
      assert.equal(a.status, 200, `${named(r)} before the restart: ${a.body.slice(0, 300)}`);
      before.set(r, comparable(a.body));
    }

    const noStore = new Map<string, Answer>();
    for (const [path, accept] of NO_STORE) noStore.set(path, await ask(base, path, { accept }));

    // The load: clients asking every route in turn, and a prober asking /health/ready, throughout.
    // Every answer is the bytes of before or the 503 with Retry-After, never anything else.
    const wrong: string[] = [];
    let answered = 0;
    let unavailable = 0;
    /** When each request of the load was sent and answered, and whether with a 200. */
    const sentLog: Array<{ sent: number; done: number; ok: boolean; route: Route }> = [];
    const client = async (offset: number) => {
      for (let i = offset; loading; i++) {
        const r = ROUTES[i % ROUTES.length]!;
        const sent = Date.now();
        const a = await get(r);
        answered++;
        sentLog.push({ sent, done: Date.now(), ok: a.status === 200, route: r });
        if (a.status === 200 && comparable(a.body) === before.get(r)) continue;
        if (a.status === 503 && a.retryAfter === '1') {
          unavailable++;
          try {
            checkUnavailable(r, a);
            continue;
          } catch (e) {
            wrong.push((e as Error).message);
            continue;
          }
        }
        wrong.push(`${named(r)}: ${a.status} ${a.body.slice(0, 300)}`);
      }
    };
    const probes: Array<{ sent: number; done: number; status: number; body: string }> = [];
    const prober = async () => {
      while (loading) {
        const sent = Date.now();
        const a = await health();
        probes.push({ sent, done: Date.now(), status: a.status, body: a.body });
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    const load = Promise.all([client(0), client(11), client(22), prober()]);

    const outages: Array<{ crashing: number; down: number; restarting: number; up: number }> = [];
    for (let n = 1; n <= RESTARTS; n++) {
      const during = answered;
      await until('requests under load', () => answered >= during + ROUTES.length);
      const crashing = Date.now();
      await cluster.crash();
      const down = Date.now();
      // While it is down: not ready, and every route the 503 in its own form.
      await until('/health/ready to say not ready', async () => (await health()).status === 503);
      for (const r of ROUTES) checkUnavailable(r, await get(r));
      for (const [path, accept] of NO_STORE)
        assert.deepEqual(await ask(base, path, { accept }), noStore.get(path), `${path} needs no store`);
      const restarting = Date.now();
      await cluster.restart();
      const up = Date.now();
      outages.push({ crashing, down, restarting, up });

      // Back: every route answers 200 to a request sent within BACK_WITHIN_MS of the database's
      // return (by when it was sent: on a busy machine an answer may take long whatever the store
      // does; what must hold is that the node serves again by itself); and as soon as
      // /health/ready says ready, every route answers (ready means answering).
      const readyThenAll = (async () => {
        const ready = await until('/health/ready to say ready', async () => {
          const sent = Date.now();
          return (await health()).status === 200 && sent;
        });
        const answers = await Promise.all(ROUTES.map(async (r) => `${(await get(r)).status} ${named(r)}`));
        return { ready, answers };
      })();
      const back: Array<[number, string]> = [];
      await Promise.all(
        ROUTES.map(async (r) => {
          const { a, sent } = await until(
            `${named(r)} to answer again`,
            async () => {
              const sent = Date.now();
              const a = await get(r);
              return a.status === 200 ? { a, sent } : undefined;
            },
            30_000,
            50,
          );
          back.push([sent - up, named(r)]);
          assert.equal(comparable(a.body), before.get(r), `${named(r)} after restart ${n}`);
        }),
      );
      back.sort((a, b) => b[0] - a[0]);
      t.diagnostic(
        `restart ${n}: every route answered 200 to a request sent ${back[0]![0]} ms after the return at the latest (${back
          .slice(0, 3)
          .map(([ms, r]) => `${r}: ${ms} ms`)
          .join('; ')})`,
      );
      assert.deepEqual(
        back.filter(([ms]) => ms > BACK_WITHIN_MS),
        [],
        `restart ${n}: every route answers within ${BACK_WITHIN_MS} ms of the database's return`,
      );
      const { ready, answers } = await readyThenAll;
      assert.ok(ready - up <= BACK_WITHIN_MS, `restart ${n}: ready ${ready - up} ms after the database's return`);
      assert.deepEqual(
        answers,
        ROUTES.map((r) => `200 ${named(r)}`),
        `restart ${n}: once ready, every route answers`,
      );
    }
    loading = false;
    await load;

    const ended = Date.now();
    assert.deepEqual(wrong, [], 'under load, every answer is the bytes of before or the 503 in its own form');
    assert.ok(unavailable > 0, 'the load met the outages');
    // Every request of the load sent from BACK_WITHIN_MS after a return on, and answered before the next stop began, got a 200.
    outages.forEach(({ up }, i) => {
      const until = outages[i + 1]?.crashing ?? ended;
      const failed = sentLog
        .filter((l) => l.sent > up + BACK_WITHIN_MS && l.done < until && !l.ok)
        .map((l) => `${named(l.route)} sent ${l.sent - up} ms after the return`);
      assert.deepEqual(failed, [], `restart ${i + 1}: the load is served again`);
    });
    // /health/ready told the truth: every probe sent after a stop and answered before the restart began was 503;
    // none was 200 while the database was down.
    for (const { down, restarting } of outages) {
      const meanwhile = probes.filter((p) => p.sent >= down && p.done <= restarting);
      assert.ok(meanwhile.length > 0, 'probes while the database was down');
      for (const p of meanwhile) {
        assert.deepEqual(
          { status: p.status, body: JSON.parse(p.body) as unknown },
          {
            status: 503,
            body: {
              status: 503,
              name: 'NotReadyException',
              message:
                'This server is not ready to answer: the store does not answer. Retry after 5 seconds (see the Retry-After header); /health/live tells whether the process runs at all.',
            },
          },
        );
      }
    }
  } finally {
    loading = false;
    await node?.stop();
    await cluster.stop();
  }
});
