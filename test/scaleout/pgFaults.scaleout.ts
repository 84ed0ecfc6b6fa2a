/**
 * Fault injection (docs/deployment.md "When the store goes away"): the network between
 * heritage-api and its PostgreSQL store (a relay, test/helpers/relay.ts) is cut 20 times at
 * random moments: during loads (`heritage-api ingest items`, a process of its own) and while
 * a node (`heritage-api serve --workers 2`) is searched and read without pause.
 *
 * What must hold:
 * - nothing half written: after every cut, every stored item has its bodies and stored
 *   fields, and its row, bodies, stored fields and hierarchy are all of one version of its
 *   package (the one whose bytes are stored), as a SQLite store loaded without faults has
 *   them; a load that was cut stored whole batches only (one transaction each);
 * - nothing lost: a load cut is run again until it succeeds (as docs/deployment.md tells
 *   the operator), and then every package of every load is stored with the digest of its
 *   file, and everything else (JSON body, ETag, stored fields, ancestry) equal to the
 *   reference's; the node's search finds every item, with its final title, once it has
 *   caught up;
 * - the node answers every request with a 200 or the 503 StoreUnavailableException with
 *   Retry-After (never a 500, never no answer) and serves again by itself after each cut.
 *
 * The moments are random (a seed, printed, makes a run repeatable: FAULT_SEED=n).
 * Run by `npm run test:scaleout`, not by `npm test`: a few minutes on two busy cores.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { decodeBody } from '../../src/store/bodyCodec.js';
import { createPool } from '../../src/store/postgres/db.js';
import { openPostgresStore } from '../../src/store/postgres/PostgresStore.js';
import { migratePostgres } from '../../src/store/postgres/schema.js';
import { openSqliteStore } from '../../src/store/sqlite/SqliteStore.js';
import type { Store } from '../../src/store/Store.js';
import { spawnCli } from '../helpers/cli.js';
import { cortexXml, type TestPackage } from '../helpers/packages.js';
import { startCluster } from '../helpers/postgresCluster.js';
import { Relay } from '../helpers/relay.js';
import { ask, serveNode, until, type Answer } from '../helpers/serveProcess.js';

/** Cuts in all: the first LOADS during a load each, the rest while the node is searched alone. */
const CUTS = 20;
const LOADS = 10;
/** Hierarchies per load, and children under each root. */
const ROOTS = 8;
const CHILDREN = 19;
/** Packages of the previous load that each load writes again, changed. */
const REVISED = 20;
/** ingest.batchSize of the loads: a load of 180 packages is 9 transactions. */
const BATCH = 20;

const UNAVAILABLE =
  'The store behind this server cannot answer now (unreachable or busy), so this request was not answered. Retry after 1 seconds (see the Retry-After header); /health/ready says when this server can answer again.';
const UNREACHABLE =
  /^heritage-api: Cannot reach the PostgreSQL store at postgres:\/\/heritage:\*\*\*@127\.0\.0\.1:\d+\/heritage \(.+\): check store\.url and that the server runs\.$/m;

/** A small seeded generator (mulberry32): the moments of a failing run can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const idOf = (load: number, root: number, child?: number) => `FAULT-${load}-${root}${child === undefined ? '' : `-${child}`}`;

/** Load `n`: ROOTS hierarchies of a root and CHILDREN children in sequence; from the second on, REVISED children of load n-1 again with new titles. */
function loadPackages(n: number): TestPackage[] {
  const packages: TestPackage[] = [];
  for (let r = 0; r < ROOTS; r++) {
    const root = idOf(n, r);
    packages.push({ id: root, title: `Bestand ${n}.${r} Kupferstiche`, htype: 'Bestand', aggregationEntity: true });
    for (let c = 0; c < CHILDREN; c++) {
      packages.push({
        id: idOf(n, r, c),
        title: `Blatt ${n}.${r}.${c} Kupferstich`,
        htype: 'Objekt',
        parent: root,
        position: String(c + 1),
        aggregationEntity: false,
        ...(c > 0 ? { previous: idOf(n, r, c - 1) } : {}),
      });
    }
  }
  if (n > 0) {
    const before = loadPackages(n - 1).filter((p) => p.parent !== undefined);
    for (const p of before.slice(0, REVISED)) packages.push({ ...p, title: `${p.title} (revised by load ${n})` });
  }
  return packages;
}

/** A package with its title in `preview` too, where the search takes a hit's title from (src/search/engine/itemDocument.ts). */
const packageXml = (p: TestPackage) =>
  cortexXml(p).replace('</cortex>', `<preview type="Kultur"><title>${p.title!}</title></preview></cortex>`);

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** What is stored of an item, as digests: every part a half-written item could lack or have of another version. */
interface Stored {
  xml: string | null;
  json: string | null;
  fields: string | null;
  etag: string;
  label: string;
  parentRef: string | null;
  previousRef: string | null;
  position: string | null;
}

const ROWS = `SELECT i.id, i.label, i.parent_ref, i.previous_ref, i.position, i.etag, x.body AS xml, j.body AS json, f.doc AS fields
  FROM items i LEFT JOIN item_xml x ON x.item = i.num LEFT JOIN item_json j ON j.item = i.num LEFT JOIN item_fields f ON f.item = i.num`;

interface Row {
  id: string;
  label: string;
  parent_ref: string | null;
  previous_ref: string | null;
  position: string | null;
  etag: string;
  xml: Buffer | null;
  json: Buffer | null;
  fields: string | null;
}

function storedOf(rows: Row[]): Map<string, Stored> {
  const stored = new Map<string, Stored>();
  for (const r of rows) {
    stored.set(r.id, {
      xml: r.xml === null ? null : sha256(decodeBody(r.xml)),
      json: r.json === null ? null : sha256(decodeBody(r.json)),
      fields: r.fields === null ? null : sha256(r.fields),
      etag: r.etag,
      label: r.label,
      parentRef: r.parent_ref,
      previousRef: r.previous_ref,
      position: r.position,
    });
  }
  return stored;
}

/** The SQLite reference loaded with `dirs` in order, without faults: what each version of each package is stored as. */
async function reference(dir: string, name: string, dirs: string[]): Promise<Map<string, Stored>> {
  const path = join(dir, `${name}.db`);
  const store = openSqliteStore({ path });
  try {
    for (const d of dirs) await ingestItems(store, [d], { batchSize: BATCH });
  } finally {
    await store.close();
  }
  const db = new Database(path, { readonly: true });
  try {
    return storedOf(db.prepare(ROWS).all() as Row[]);
  } finally {
    db.close();
  }
}

test('PostgreSQL network cut 20 times at random moments during loads and searches: nothing lost, nothing half written, 200 or 503 only, back by itself', async (t) => {
  const seed = Number(process.env.FAULT_SEED ?? Date.now() % 1_000_000);
  t.diagnostic(`FAULT_SEED=${seed}`);
  const rnd = random(seed);
  const dir = mkdtempSync(join(tmpdir(), 'heritage-api-faults-'));
  const cluster = await startCluster();
  let relay: Relay | undefined;
  let node: Awaited<ReturnType<typeof serveNode>> | undefined;
  let direct: pg.Pool | undefined;
  let storeDirect: Store | undefined;
  // The clients run until the end, or until a failure: then they must stop too, or they would keep the test alive.
  let running = true;
  try {
    // The loads' files, and the references: every version of every package as a load without faults stores it.
    const loads = Array.from({ length: LOADS }, (_, n) => loadPackages(n));
    const dirs = loads.map((packages, n) => {
      const d = join(dir, `load${n}`);
      mkdirSync(d);
      for (const p of packages) writeFileSync(join(d, `${p.id}.xml`), packageXml(p));
      return d;
    });
    const fileDigest = new Map<string, Set<string>>();
    for (const packages of loads)
      for (const p of packages) (fileDigest.get(p.id) ?? fileDigest.set(p.id, new Set()).get(p.id)!).add(sha256(packageXml(p)));
    // Each load's own versions (the first one of a revised package, the revision); and the final state.
    const versions = new Map<string, Stored>();
    for (const [n, d] of dirs.entries()) {
      for (const [id, s] of await reference(dir, `load${n}`, [d])) versions.set(`${id} ${s.xml}`, s);
    }
    const final = await reference(dir, 'final', dirs);
    const finalTitles = new Map<string, string>();
    for (const packages of loads) for (const p of packages) finalTitles.set(p.id, p.title!);

    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE heritage');
    await admin.end();
    const url = cluster.adminUrl.replace(/\/postgres$/, '/heritage');
    direct = createPool({ url, max: 2 });
    await migratePostgres(direct, url);
    relay = new Relay(new URL(url));
    await relay.start();
    const env = {
      HERITAGE_API_STORE_BACKEND: 'postgres',
      HERITAGE_API_STORE_URL: relay.url(),
      // The search indexes on disk go where nothing else reads them (not beside a store.path of the working directory).
      HERITAGE_API_SEARCH_PATH: join(dir, 'search'),
      HERITAGE_API_AUTH_ANONYMOUS_READ: 'true',
      HERITAGE_API_INGEST_BATCH_SIZE: String(BATCH),
    };
    node = await serveNode(env, 2);
    const base = node.base;

    /** Checks what is stored now, straight from PostgreSQL (not through the relay): every item whole, of one version. */
    const checkWhole = async (when: string): Promise<Map<string, Stored>> => {
      const stored = storedOf((await direct!.query<Row>(ROWS)).rows);
      const broken: string[] = [];
      for (const [id, s] of stored) {
        if (s.xml === null || s.json === null || s.fields === null) {
          broken.push(
            `${id}: missing ${[s.xml === null ? 'xml' : '', s.json === null ? 'json' : '', s.fields === null ? 'stored fields' : ''].filter(Boolean).join(', ')}`,
          );
          continue;
        }
        if (!fileDigest.get(id)?.has(s.xml)) broken.push(`${id}: stored XML is no package of the loads`);
        const version = versions.get(`${id} ${s.xml}`);
        if (version === undefined) broken.push(`${id}: no reference for its stored version`);
        else if (JSON.stringify(s) !== JSON.stringify(version))
          broken.push(`${id}: ${JSON.stringify(s)} is not its version's ${JSON.stringify(version)}`);
      }
      assert.deepEqual(broken.slice(0, 10), [], `${when}: ${broken.length} items half written`);
      return stored;
    };

    // Clients of the node without pause: searches of items and persons, the Solr select, items.
    const paths = [
      '/search?query=Kupferstich&rows=5',
      '/search/index/search/select?q=Blatt&rows=3&fl=id,title',
      '/entities?query=Goethe',
      '/search?query=*:*&rows=0&facet=type_fct',
      `/items/${idOf(0, 0, 1)}/parents`,
    ];
    const wrong: string[] = [];
    let answered = 0;
    let unavailable = 0;
    const client = async (offset: number) => {
      for (let i = offset; running; i++) {
        const path = paths[i % paths.length]!;
        const a: Answer = await ask(base, path, { accept: 'application/json' }).catch((e: Error) => ({
          status: 0,
          contentType: undefined,
          retryAfter: undefined,
          body: `no answer: ${e.message}`,
        }));
        answered++;
        if (a.status === 200) continue;
        // Items not yet loaded are 404 at first.
        if (a.status === 404 && path.startsWith('/items/') && JSON.parse(a.body).name === 'ItemNotFoundException') continue;
        const message =
          a.status === 503
            ? ((JSON.parse(a.body) as { message?: string; error?: { msg?: string } }).message ?? JSON.parse(a.body).error?.msg)
            : undefined;
        if (a.status === 503 && a.retryAfter === '1' && message === UNAVAILABLE) {
          unavailable++;
          continue;
        }
        wrong.push(`${path}: ${a.status} ${a.retryAfter ?? ''} ${a.body.slice(0, 300)}`);
      }
    };
    const clients = [client(0), client(2), client(4)];

    /** Cuts the network for a random 50–1,000 ms, then opens it again. */
    const cut = async () => {
      await relay!.cut();
      const down = 50 + Math.floor(rnd() * 950);
      const during = answered;
      const end = Date.now() + down;
      // The node keeps being asked meanwhile (the clients run); at least one answer falls in the cut.
      await until('requests during the cut', () => Date.now() >= end && answered > during, 60_000, 10);
      await relay!.start();
    };

    let failedLoads = 0;
    const count = async (ids: string[]) =>
      Number((await direct!.query<{ n: string }>('SELECT count(*) AS n FROM items WHERE id = ANY($1::text[])', [ids])).rows[0]!.n);
    for (let n = 0; n < CUTS; n++) {
      if (n < LOADS) {
        // A load with a cut at a random point of it: after a random number of its packages is stored.
        const packages = loads[n]!;
        const fresh = packages.filter((p) => !p.title!.includes('(revised')).map((p) => p.id);
        const revised = packages.filter((p) => p.title!.includes('(revised'));
        const storedRevisions = async () => {
          const { rows } = await direct!.query<{ id: string; label: string }>('SELECT id, label FROM items WHERE id = ANY($1::text[])', [
            revised.map((p) => p.id),
          ]);
          return rows.filter((r) => revised.some((p) => p.id === r.id && p.title === r.label)).length;
        };
        const written = async () => (await count(fresh)) + (await storedRevisions());
        const at = Math.floor(rnd() * packages.length);
        const run = spawnCli(['ingest', 'items', dirs[n]!], { env });
        let exited = false;
        void run.then(() => (exited = true));
        await until(`load ${n} to store ${at} packages`, async () => exited || (await written()) >= at, 300_000, 5);
        await cut();
        const first = await run;
        if (first.code !== 0) {
          failedLoads++;
          assert.equal(first.code, 1, first.stderr);
          assert.match(first.stderr, UNREACHABLE);
        }
        // Nothing half written, and only whole batches of this load (or all of it).
        await checkWhole(`after the cut of load ${n}`);
        const done = await written();
        assert.ok(
          done === packages.length || done % BATCH === 0,
          `load ${n} stored ${done} of ${packages.length} packages: not whole batches of ${BATCH}`,
        );
        if (first.code !== 0) {
          // Run again, as the message says, until it succeeds: nothing is lost.
          const again = await spawnCli(['ingest', 'items', dirs[n]!], { env });
          assert.equal(again.code, 0, again.stderr);
        }
        assert.equal(await written(), packages.length, `load ${n} complete`);
      } else {
        // Searches alone: a cut at a random moment while the clients ask.
        const during = answered;
        await until('searches before the cut', () => answered >= during + 1 + Math.floor(rnd() * 40), 60_000, 5);
        await cut();
      }
      // The node serves again by itself: /health/ready, then a search.
      await until(
        `the node ready after cut ${n + 1}`,
        async () => (await ask(base, '/health/ready').catch(() => undefined))?.status === 200,
        30_000,
      );
    }
    t.diagnostic(
      `${CUTS} cuts: ${failedLoads} of ${LOADS} loads cut short and run again; ${answered} answers to the clients, ${unavailable} of them 503`,
    );
    running = false;
    await Promise.all(clients);
    assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} wrong answers of ${answered}`);
    assert.ok(unavailable > 0, 'the clients met the cuts');
    assert.ok(failedLoads > 0, 'some load was cut short');

    // Nothing lost: every package of every load, with the digest of its file and all else as the reference has it.
    const stored = await checkWhole('at the end');
    assert.equal(stored.size, final.size, 'every item stored');
    for (const [id, s] of final) assert.deepEqual(stored.get(id), s, `${id} as the reference stores it`);
    for (const packages of loads)
      for (const p of packages)
        if (finalTitles.get(p.id) === p.title)
          assert.equal(stored.get(p.id)!.xml, sha256(packageXml(p)), `${p.id}: the digest of its last file`);
    storeDirect = await openPostgresStore({ url });
    const referenceStore = openSqliteStore({ path: join(dir, 'final.db') });
    try {
      for (const id of final.keys())
        assert.deepEqual(await storeDirect.getAncestry(id), await referenceStore.getAncestry(id), `the ancestry of ${id}`);
    } finally {
      await referenceStore.close();
    }

    // The node's search finds every item with its final title, once it has caught up.
    const found = await until('the search to find every item', async () => {
      const titles = new Map<string, string>();
      let cursor = '*';
      for (;;) {
        const a = await ask(
          base,
          `/search/index/search/select?q=*:*&fl=id,title&rows=500&sort=id%20asc&cursorMark=${encodeURIComponent(cursor)}`,
          { accept: 'application/json' },
        );
        if (a.status !== 200) return undefined;
        const body = JSON.parse(a.body) as { response: { docs: Array<{ id: string; title: string | string[] }> }; nextCursorMark: string };
        for (const d of body.response.docs) titles.set(d.id, Array.isArray(d.title) ? d.title.join(' ') : d.title);
        if (body.nextCursorMark === cursor) break;
        cursor = body.nextCursorMark;
      }
      return titles.size === finalTitles.size ? titles : undefined;
    });
    assert.deepEqual(new Map([...found].sort()), new Map([...finalTitles].sort()), 'the search shows every item with its final title');
    // And its index holds the final words: the revised ones are found by the word of their revision, and only they.
    const revisedIds = [...finalTitles]
      .filter(([, title]) => title.includes('(revised'))
      .map(([id]) => id)
      .sort();
    const byWord = await ask(base, `/search/index/search/select?q=revised&fl=id&rows=500&sort=id%20asc`, { accept: 'application/json' });
    assert.equal(byWord.status, 200, byWord.body);
    assert.deepEqual(
      (JSON.parse(byWord.body) as { response: { docs: Array<{ id: string }> } }).response.docs.map((d) => d.id),
      revisedIds,
      'the search finds the revisions by their words',
    );
  } finally {
    running = false;
    await node?.stop();
    await relay?.cut();
    await storeDirect?.close();
    await direct?.end();
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
