/**
 * The search pool (src/search/searchPool.ts) on a real store: its workers answer
 * as the main thread does over the same store, see the server's own writes at
 * once, refuse what waits too long, and survive a worker stuck where no
 * cooperative deadline reaches (docs/decisions.md "Bounded searches").
 */
import type { Store } from '../../src/store/Store.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, type ConfigOverrides } from '../../src/config.js';
import type { ApiError } from '../../src/errors.js';
import { answerOf } from '../../src/http/errorMapping.js';
import { toPersonSearch } from '../../src/http/searchRequest/personSearch.js';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import type { Person } from '../../src/domain/person.js';
import { preparePerson } from '../../src/ingest/persons/preparePerson.js';
import { createSearchRunner, SearchPool, type PoolOptions, type SearchRunner } from '../../src/search/searchPool.js';
import { sampleThread, thisThreadId } from '../../src/search/threadPriority.js';
import { BACKENDS, type TestBackend } from '../helpers/backends.js';
import { FIXTURES } from '../helpers/paths.js';

const EF = `${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`;
const STUCK_WORKER = new URL('./stuckSearchWorker.ts', import.meta.url);
const linux = process.platform === 'linux' ? {} : { skip: 'the nice value is per thread on Linux only' };
const search = (query: string) => ({
  kind: 'person' as const,
  request: toPersonSearch({ query, facet: 'person_occupation_fct' }).request,
});

/** A pool, the store, and the same store searched on the main thread (workers: 0), to compare with. */
async function withPool(
  backend: TestBackend,
  search: ConfigOverrides['search'],
  options: PoolOptions,
  body: (pool: SearchPool, store: Store, main: SearchRunner) => Promise<void>,
) {
  const opened = await backend.open();
  await ingestEntities(opened.store, [EF], { batchSize: 500 });
  const config = loadConfig({ flags: { search } });
  const pool = createSearchRunner(opened.store, config.search, options);
  const main = createSearchRunner(opened.store, loadConfig({ flags: { search: { ...search, workers: 0 } } }).search);
  try {
    assert.ok(pool instanceof SearchPool, 'a store in a file is searched on workers');
    assert.ok(!(main instanceof SearchPool), 'no workers: the main thread');
    await body(pool, opened.store, main);
  } finally {
    await pool.close();
    await main.close();
    await opened.dispose();
  }
}

/** The catalog's answer (src/http/errorMapping.ts) to the error a promise is rejected with. */
async function refusal(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    const { api, log } = answerOf(e, loadConfig().search, 'test');
    assert.equal(log, undefined, `a refusal, not an internal error: ${String(e)}`);
    return api;
  }
  assert.fail('expected the search to be refused');
}

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} a worker answers exactly as the store does, and sees a write through the server's connection at once`, async () => {
    await withPool(backend, { workers: 2 }, {}, async (pool, store, main) => {
      for (const q of ['Wien', 'w*n', 'dateOfBirth:[1800 TO 1850]', '*:*']) {
        const answer = await pool.engine(search(q));
        assert.ok(answer.total > 0, q);
        assert.deepEqual(answer, await main.engine(search(q)), q);
      }
      const probe = {
        id: 'http://d-nb.info/gnd/999991',
        type: 'person',
        preferredName: 'Probe Eins',
        professionOrOccupation: ['Glasbläser'],
      } as unknown as Person;
      assert.equal((await pool.engine(search('Glasbläser'))).total, 0);
      await store.upsertPersons([preparePerson(probe)]);
      // No wait: the worker's connection reads the commit count on every search.
      assert.equal((await pool.engine(search('Glasbläser'))).total, 1);
      assert.equal((await pool.engine(search('Glasbläser'))).total, 1, 'both workers');
    });
  });

  test(`${b} a worker stuck past budget and grace is terminated and replaced; the stuck search gets the 503 and the next one its answer`, async () => {
    // A budget of 300 ms keeps the test short; at full priority, so that the replacement's
    // search is not starved past it by whatever else runs on a busy machine (search.niceness).
    await withPool(
      backend,
      { workers: 1, timeBudgetMs: 300, niceness: 0 },
      { graceMs: 50, workerUrl: STUCK_WORKER },
      async (pool, _store, main) => {
        const stuck = pool.engine(search('stuck'));
        // Waits for the only worker, then runs on its replacement.
        const queued = pool.engine(search('Wien'));
        const error = await refusal(stuck);
        assert.deepEqual(
          [error.status, error.errorName, error.message, error.headers],
          [
            503,
            'SearchTimeoutException',
            'The search was stopped after 300 ms, its time budget. Narrow the query: fewer wildcards, more letters before each * or ?, fewer OR alternatives; or retry after 1 seconds (see the Retry-After header).',
            { 'Retry-After': '1' },
          ],
        );
        assert.deepEqual(await queued, await main.engine(search('Wien')));
        assert.equal(pool.terminated, 1);
        assert.deepEqual(await pool.engine(search('w*n')), await main.engine(search('w*n')));
        assert.equal(pool.terminated, 1);
      },
    );
  });

  test(`${b} a search sent after a batch of the feed that takes the worker past the budget to apply gets its answer: index work is not the search's time`, async () => {
    for (const workers of [1, 2]) {
      // Two workers: the search is scattered in shards (parts), each sent after the slow batch too.
      await withPool(
        backend,
        { workers, shards: workers, timeBudgetMs: 300, niceness: 0 },
        { graceMs: 50, workerUrl: STUCK_WORKER },
        async (pool, store, main) => {
          // Built and caught up first, so that the budget is armed at the dispatch.
          assert.deepEqual(await pool.engine(search('Wien')), await main.engine(search('Wien')));
          const slow = { id: 'http://d-nb.info/gnd/999992', type: 'person', preferredName: 'Langsam Zwei' } as unknown as Person;
          await store.upsertPersons([preparePerson(slow)]);
          // The search's own refresh sends the batch, then the search: the worker applies the one (1.5 s) before the other.
          const answer = await pool.engine(search('Langsam'));
          assert.deepEqual(answer, await main.engine(search('Langsam')));
          assert.equal(answer.total, 1, `${workers} workers`);
          assert.equal(pool.state().timeouts, 0, `${workers} workers`);
        },
      );
    }
  });

  test(`${b} a worker on a core past budget and grace without stopping is terminated and replaced; the next search gets its answer`, async () => {
    // A budget of 300 ms keeps the test short; at full priority, so that the replacement's
    // search is not starved past it by whatever else runs on a busy machine (search.niceness).
    await withPool(
      backend,
      { workers: 1, timeBudgetMs: 300, niceness: 0 },
      { graceMs: 50, workerUrl: STUCK_WORKER },
      async (pool, _store, main) => {
        const error = await refusal(pool.engine(search('spin')));
        assert.equal(error.errorName, 'SearchTimeoutException');
        // The watchdog terminates it once it has had the grace on a core since its budget (src/search/threadPriority.ts).
        assert.deepEqual(await pool.engine(search('Wien')), await main.engine(search('Wien')));
        assert.equal(pool.terminated, 1);
      },
    );
  });

  test(`${b} the workers run at search.niceness, the main thread as before`, linux, async () => {
    const before = sampleThread(thisThreadId())!.niceness;
    await withPool(backend, { workers: 2, niceness: 17 }, {}, async (pool, _store, main) => {
      // Both workers answer (the first takes one, the second the other), so both have said their thread.
      assert.deepEqual(await Promise.all([pool.engine(search('Wien')), pool.engine(search('Wien'))]), [
        await main.engine(search('Wien')),
        await main.engine(search('Wien')),
      ]);
      const threads = pool.threadIds();
      assert.equal(threads.length, 2);
      assert.deepEqual(
        threads.map((t) => sampleThread(t)?.niceness),
        [17, 17],
      );
      assert.equal(sampleThread(thisThreadId())!.niceness, before);
    });
  });

  test(`${b} with every worker busy and the queue full, a search is refused at once with a 503 to retry`, async () => {
    await withPool(backend, { workers: 1, queueLength: 0, timeBudgetMs: 200 }, { graceMs: 20, workerUrl: STUCK_WORKER }, async (pool) => {
      const stuck = pool.engine(search('stuck'));
      const error = await refusal(pool.engine(search('Wien')));
      assert.deepEqual(
        [error.status, error.errorName, error.message, error.headers],
        [
          503,
          'SearchBusyException',
          'Too many searches are running or waiting. Retry after 1 seconds (see the Retry-After header).',
          { 'Retry-After': '1' },
        ],
      );
      assert.equal((await refusal(stuck)).errorName, 'SearchTimeoutException');
    });
  });
}
