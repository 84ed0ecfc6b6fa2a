/**
 * The search indexes on disk across a restart (docs/search-engine.md "Persistence"): a
 * server started on a written index answers every search, whole bodies, as the server that
 * wrote it; after changes to the store while no server ran, one started from the index
 * (catching up with the changes since) answers as one that built its index from the store.
 * An index written for another store is told in one log line and rebuilt.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { generateApiKey, hashApiKey } from '../../src/apiKeys.js';
import { loadConfig } from '../../src/config.js';
import { buildServer } from '../../src/http/server.js';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { BACKENDS } from '../helpers/backends.js';
import { CORTEX_DIR, FIXTURES, GOETHE_ID } from '../helpers/paths.js';

const EF = `${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`;

/** Searches of every kind: items and persons, facets, filters, sorts, offsets, cursors, spellcheck, suggestions. */
const URLS = [
  '/search?query=goethe&sort=ALPHA_ASC&rows=2&offset=1&facet=place_fct&facet=type_fct&facet.limit=3',
  '/search?query=*:*&rows=5&facet=sector_fct&facet=type_fct&facet=place_fct&facet=time_fct',
  '/search?has_media_fct=false&sector_fct=sec_02&sector_fct=sec_06&rows=4&facet=provider_fct',
  '/search?query=goehte',
  '/search?query=Schiler OR brife&rows=3',
  '/search?query=title:brief* AND NOT goethe&rows=6&sort=ALPHA_DESC',
  '/search?query=begin_time:[600000 TO 700000]&rows=5&sort=RANDOM_7',
  '/search/suggest?query=GOE&rows=5',
  '/search/index/search/select?q=goethe&fq=type_fct:mediatype_002&facet=true&facet.field=place_fct&rows=3&spellcheck=true',
  '/entities?query=friedell&facet=person_gender_fct',
  '/entities?query=*:*&rows=7&sort=ALPHA_DESC&facet=person_gender_fct&facet=person_occupation_fct',
  '/entities?query=goete&rows=3',
  '/search/person/suggest?query=egon%20fr',
];

/** Cursor walks: the pages a client gets following nextCursorMark. */
const WALKS = [
  '/search?query=*:*&rows=97&sort=RANDOM_42',
  '/search?query=*:*&rows=50&sort=ALPHA_ASC',
  '/entities?query=*:*&rows=100&sort=ALPHA_ASC',
];

interface Server {
  get(url: string): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

test('the search indexes on disk across restarts', async (t) => {
  for (const backend of BACKENDS) {
    await t.test(
      `[${backend.name}] a restart from the written index answers as before; after changes, as a fresh build`,
      { timeout: 300_000 },
      async () => {
        const opened = await backend.open();
        const dirs = [1, 2, 3].map(() => mkdtempSync(join(tmpdir(), 'heritage-api-restart-')));
        const lines: string[] = [];
        try {
          const store = opened.store;
          await ingestItems(store, [CORTEX_DIR, `${FIXTURES}items/edm/`], { batchSize: 100 });
          await ingestEntities(store, [EF], { batchSize: 500 });
          const key = generateApiKey();
          await store.createKey('test', hashApiKey(key));
          const headers = { accept: 'application/json', authorization: `OAuth oauth_consumer_key="${key}"` };

          const start = async (dir: string): Promise<Server> => {
            const config = loadConfig({ flags: { store: backend.config(opened.location), search: { path: dir } } });
            const app = await buildServer(config, store, { logging: false });
            const get = async (url: string) => {
              const res = await app.inject({ url, headers });
              // Solr's QTime is the time taken: the one part of an answer that may differ
              return { status: res.statusCode, body: res.body.replace(/"QTime":\d+/, '"QTime":0') };
            };
            // inject() starts the search workers with the first search; then wait for ready
            await get('/search?query=x&rows=0');
            for (let i = 0; (await app.inject({ url: '/health/ready' })).statusCode !== 200; i++) {
              assert.ok(i < 600, 'ready within a minute');
              await new Promise((r) => setTimeout(r, 100));
            }
            return { get, close: () => app.close() };
          };
          const generations = (dir: string) =>
            readdirSync(dir)
              .filter((f) => /^manifest-\d+\.json$/.test(f))
              .sort();
          const written = async (dir: string, count: number) => {
            for (let i = 0; generations(dir).length < count; i++) {
              assert.ok(i < 600, `generation ${count} written in ${dir} within a minute`);
              await new Promise((r) => setTimeout(r, 100));
            }
          };
          const answers = async (s: Server) => {
            const out: Record<string, { status: number; body: string }> = {};
            for (const url of URLS) out[url] = await s.get(url);
            for (const walk of WALKS) {
              let cursor = '*';
              for (let page = 0; page < 30; page++) {
                const url = `${walk}&cursorMark=${encodeURIComponent(cursor)}`;
                const res = await s.get(url);
                out[url] = res;
                const next = (JSON.parse(res.body) as { nextCursorMark?: string }).nextCursorMark;
                if (next === undefined || next === cursor) break;
                cursor = next;
              }
            }
            return out;
          };

          // A first start builds from the store and writes the index.
          const a = await start(dirs[0]!);
          await written(dirs[0]!, 1);
          const before = await answers(a);
          await a.close();
          assert.deepEqual(
            Object.entries(before)
              .filter(([, r]) => r.status !== 200)
              .map(([u, r]) => `${u} ${r.body}`),
            [],
            'every search answered',
          );
          assert.ok(JSON.parse(before[URLS[0]!]!.body).numberOfResults > 0);

          // A restart reads it: the same answers, and nothing written again (no rebuild).
          const b = await start(dirs[0]!);
          assert.deepEqual(await answers(b), before);
          await b.close();
          assert.deepEqual(generations(dirs[0]!), ['manifest-000001.json']);

          // Changes while no server runs: items blocked and deleted, persons loaded again.
          await store.blockItem(GOETHE_ID, 'test');
          await ingestItems(store, [`${FIXTURES}items/edm/`], { batchSize: 100 });
          await ingestEntities(store, [EF], { batchSize: 500 });

          const fromDisk = await start(dirs[0]!);
          const fresh = await start(dirs[1]!);
          const expected = await answers(fresh);
          assert.notDeepEqual(expected, before, 'the changes show');
          assert.deepEqual(await answers(fromDisk), expected);
          await fromDisk.close();
          await fresh.close();

          // An index of another store: told in one line, rebuilt, the same answers.
          const other = await backend.open();
          try {
            await other.store.createKey('test', hashApiKey(key));
            const config = loadConfig({ flags: { store: backend.config(other.location), search: { path: dirs[2]! } } });
            const app = await buildServer(config, other.store, { logging: false });
            await app.inject({ url: '/search?query=x', headers });
            await written(dirs[2]!, 1);
            await app.close();
          } finally {
            await other.dispose();
          }
          const stderr = process.stderr.write.bind(process.stderr);
          process.stderr.write = (chunk: string | Uint8Array, ...rest: never[]) => {
            if (typeof chunk === 'string' && chunk.startsWith('heritage-api: search index:')) lines.push(chunk.trimEnd());
            return stderr(chunk, ...rest);
          };
          try {
            const rebuilt = await start(dirs[2]!);
            assert.deepEqual(await answers(rebuilt), expected);
            await rebuilt.close();
          } finally {
            process.stderr.write = stderr;
          }
          assert.equal(lines.length, 1, lines.join('\n'));
          assert.match(
            lines[0]!,
            new RegExp(
              `^heritage-api: search index: the search index in ${dirs[2]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was written for another store \\(\\w+, this one is \\w+\\); building a new one from the store\\.$`,
            ),
          );
          assert.ok(existsSync(dirs[2]!));
        } finally {
          for (const d of dirs) rmSync(d, { recursive: true, force: true });
          await opened.dispose();
        }
      },
    );
  }
});
