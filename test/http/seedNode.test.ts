/**
 * Many nodes, one truth (docs/deployment.md "A new node from another node's index"): a second
 * node on the same store starts from a copy of the first node's index files, made by
 * `heritage-api index copy` while the first one serves, catches up from the change feed with
 * what was loaded after the copy, and then answers every search as the first node does
 * (whole bodies); it says in one line which generation it started from, and writes no
 * generation of its own (a rebuild would write one at once). Both nodes run two search workers,
 * so their indexes come through shared memory (docs/search-engine.md "One copy per process"):
 * the first node writes a new generation after the load (search.indexWriteSeconds 1), its
 * workers go over to it, and it still answers as the seeded node does.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { generateApiKey, hashApiKey } from '../../src/apiKeys.js';
import { loadConfig } from '../../src/config.js';
import { buildServer } from '../../src/http/server.js';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { BACKENDS } from '../helpers/backends.js';
import { cli } from '../helpers/cli.js';
import { CORTEX_DIR, FIXTURES, GOETHE_ID } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';

const EF = `${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`;

const URLS = [
  '/search?query=*:*&rows=5&facet=sector_fct&facet=type_fct&facet=place_fct&facet=time_fct',
  '/search?query=goethe&sort=ALPHA_ASC&rows=3&offset=1&facet=place_fct&facet=type_fct',
  '/search?query=title:brief* AND NOT goethe&rows=6&sort=ALPHA_DESC',
  '/search?query=instrument&rows=10&facet=provider_fct',
  '/search?query=goehte',
  '/search/suggest?query=GOE&rows=5',
  '/search/index/search/select?q=goethe&fq=type_fct:mediatype_002&facet=true&facet.field=place_fct&rows=3&spellcheck=true',
  '/entities?query=*:*&rows=7&sort=ALPHA_DESC&facet=person_gender_fct&facet=person_occupation_fct',
  '/entities?query=goete&rows=3',
];

const generations = (dir: string) =>
  readdirSync(dir)
    .filter((f) => /^manifest-\d+\.json$/.test(f))
    .sort();

async function until(what: string, condition: () => Promise<boolean> | boolean, seconds = 120): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a node seeded from another node’s index catches up and answers as it does', async (t) => {
  for (const backend of BACKENDS) {
    await t.test(
      `[${backend.name}] index copy while serving, more records loaded, the seeded node catches up`,
      { timeout: 600_000 },
      async () => {
        const opened = await backend.open();
        const second = await backend.connect(opened.location);
        const [dir1, dir2] = [tempDir('seed-node1'), join(tempDir('seed-node2'), 'index')];
        const lines: string[] = [];
        const stderr = process.stderr.write.bind(process.stderr);
        process.stderr.write = (chunk: string | Uint8Array, ...rest: never[]) => {
          if (typeof chunk === 'string' && chunk.startsWith('heritage-api: search index:')) lines.push(chunk.trimEnd());
          return stderr(chunk, ...rest);
        };
        const closers: Array<() => Promise<void>> = [];
        try {
          const store = opened.store;
          await ingestItems(store, [CORTEX_DIR], { batchSize: 100 });
          await ingestEntities(store, [EF], { batchSize: 500 });
          const key = generateApiKey();
          await store.createKey('test', hashApiKey(key));
          const headers = { accept: 'application/json', authorization: `OAuth oauth_consumer_key="${key}"` };
          const start = async (node: typeof store, dir: string, indexWriteSeconds = 600) => {
            const config = loadConfig({
              flags: { store: backend.config(opened.location), search: { path: dir, workers: 2, indexWriteSeconds } },
            });
            const app = await buildServer(config, node, { logging: false });
            closers.push(() => app.close());
            const get = async (url: string) => {
              const res = await app.inject({ url, headers });
              return { status: res.statusCode, body: res.body.replace(/"QTime":\d+/, '"QTime":0') };
            };
            await get('/search?query=x&rows=0');
            await until('the node to be ready', async () => (await app.inject({ url: '/health/ready' })).statusCode === 200);
            return get;
          };
          // Each search twice at once, so that both workers answer some.
          const answers = async (get: (url: string) => Promise<{ status: number; body: string }>) => {
            const out: Record<string, { status: number; body: string }> = {};
            for (const url of URLS) {
              const [a, b] = await Promise.all([get(url), get(url)]);
              assert.deepEqual(a, b, `both workers answer ${url} alike`);
              out[url] = a;
            }
            return out;
          };
          const total = async (get: (url: string) => Promise<{ status: number; body: string }>) =>
            (JSON.parse((await get('/search?query=*:*&rows=0')).body) as { numberOfResults: number }).numberOfResults;

          // Node 1 builds from the store and writes its index.
          const node1 = await start(store, dir1, 1);
          await until('node 1 to write its index', () => generations(dir1).length === 1);
          const before = await total(node1);

          // The copy, made by the CLI while node 1 serves.
          const env =
            backend.name === 'sqlite'
              ? { HERITAGE_API_STORE_BACKEND: 'sqlite', HERITAGE_API_STORE_PATH: opened.location }
              : { HERITAGE_API_STORE_BACKEND: 'postgres', HERITAGE_API_STORE_URL: opened.location };
          const copied = await cli(['index', 'copy', dir2], { env: { ...env, HERITAGE_API_SEARCH_PATH: dir1 } });
          assert.equal(copied.code, 0, copied.err.join('\n'));
          assert.deepEqual(copied.err, []);
          assert.match(
            copied.out.join('\n'),
            new RegExp(
              `^Copied generation 1 \\(1222 persons, ${before} items, \\d+\\.\\d MB\\) from ${dir1.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} to ${dir2.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} in \\d+\\.\\d s\\. A server with search\\.path .* starts from it and catches up from the change feed\\.$`,
            ),
          );
          assert.deepEqual(generations(dir2), ['manifest-000001.json']);
          const status = await cli(['index', 'status'], { env: { ...env, HERITAGE_API_SEARCH_PATH: dir2 } });
          assert.equal(status.code, 0, status.err.join('\n'));
          assert.match(status.out[2]!, new RegExp(`^ {2}persons: 1222 documents`));
          // A second copy into the same place is refused: it would mix two indexes.
          const again = await cli(['index', 'copy', dir2], { env: { ...env, HERITAGE_API_SEARCH_PATH: dir1 } });
          assert.deepEqual(again, {
            code: 1,
            out: [],
            err: [`${dir2} already holds a search index: give an empty or new directory: nothing was copied.`],
          });

          // More records after the copy: items loaded, one blocked.
          await ingestItems(store, [`${FIXTURES}items/edm/`], { batchSize: 100 });
          await store.blockItem(GOETHE_ID, 'test');

          // Node 2, on its own connection, from the copy: it catches up.
          lines.length = 0;
          const node2 = await start(second, dir2);
          assert.equal(lines.length, 1, lines.join('\n'));
          assert.match(
            lines[0]!,
            new RegExp(
              `^heritage-api: search index: starting from generation 1 in ${dir2.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(1222 persons through person:log:\\d+, ${before} items through item:log:\\d+\\); catching up from the change feed\\.$`,
            ),
          );
          const after = await total(node2);
          assert.ok(after > before, `node 2 holds the items loaded after the copy (${after} > ${before})`);
          await until('node 1 to catch up with the load', async () => (await total(node1)) === after);
          // Node 1 writes the load as a new generation; its workers go over to it.
          await until('node 1 to write a generation with the load', () => generations(dir1).some((f) => f > 'manifest-000001.json'));
          const expected = await answers(node1);
          assert.deepEqual(
            Object.entries(expected).filter(([, r]) => r.status !== 200),
            [],
            'every search answered',
          );
          assert.deepEqual(await answers(node2), expected);
          const goethe = `/search?query=id:${GOETHE_ID}&rows=1`;
          assert.equal(JSON.parse((await node2(goethe)).body).numberOfResults, 0, 'the item blocked after the copy is gone from node 2');
          // It did not rebuild: a rebuild writes a generation at once; node 2 has only the copy.
          assert.deepEqual(generations(dir2), ['manifest-000001.json']);
        } finally {
          process.stderr.write = stderr;
          for (const close of closers) await close();
          await second.close();
          await opened.dispose();
        }
      },
    );
  }
});
