/**
 * Fresh without stalls (docs/search-engine.md "The store's change feed"), on the service's search
 * runners (workers, and
 * the main thread without them): a start builds the indexes in the background and a
 * search waits for its kind's build; a record committed by another connection (another
 * process: an ingest) becomes findable without any search asking for a refresh, by the
 * background's polling of the change feed. Tests wait for conditions, never for a time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { toPersonSearch } from '../../src/http/searchRequest/personSearch.js';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import type { Person } from '../../src/domain/person.js';
import { preparePerson } from '../../src/ingest/persons/preparePerson.js';
import { parseQuery } from '../../src/query/parse.js';
import { queryFields } from '../../src/search/engine/schema.js';
import { itemSchema } from '../../src/search/schemas/itemSchema.js';
import { HostedIndexes } from '../../src/search/hostedIndexes.js';
import { createSearchRunner, type SearchRunner } from '../../src/search/searchPool.js';
import { BACKENDS } from '../helpers/backends.js';
import { FIXTURES } from '../helpers/paths.js';
import { cortexPackages } from './itemFixtures.js';

const EF = `${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`;

/** Polls until the condition holds (no fixed wait: a busy machine only takes longer). */
async function until(what: string, condition: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`gave up waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const person = (id: string, occupation: string) =>
  preparePerson({
    id,
    type: 'person',
    preferredName: 'Probe Person',
    variantName: [],
    professionOrOccupation: [occupation],
  } as unknown as Person);

const itemQuery = (q: string) => ({
  kind: 'item' as const,
  request: {
    query: parseQuery(q, { fields: queryFields(itemSchema) }),
    sort: { kind: 'id' as const, descending: false },
    offset: 0,
    rows: 10,
  },
});

for (const backend of BACKENDS) {
  for (const workers of [1, 0]) {
    const where = workers === 0 ? 'the main thread' : 'a worker';
    test(`[${backend.name}] on ${where}: a search waits for the first build, and another connection's commits become findable by themselves`, async () => {
      const { store, location: path, dispose } = await backend.open();
      await ingestEntities(store, [EF], { batchSize: 500 });
      const [first, ...rest] = cortexPackages().map((p) => p.item);
      await store.upsertItems(rest);
      const runner: SearchRunner = createSearchRunner(store, loadConfig({ flags: { search: { workers } } }).search);
      try {
        assert.equal(runner.state().indexBuilt, false, 'nothing is built before the start');
        // Asked at once, before any build: it waits for the person index and sees every person.
        const all = await runner.engine({ kind: 'person', request: toPersonSearch({ query: '*:*', rows: '0' }).request });
        assert.equal(all.total, await store.countPersons());
        await until('both indexes built', () => runner.state().indexBuilt);
        assert.ok(runner.state().index !== undefined, 'the index knows what it caught up with');
        assert.equal((await runner.engine(itemQuery('*:*'))).total, rest.length);

        const other = await backend.connect(path);
        try {
          await other.upsertPersons([person('http://d-nb.info/gnd/999991', 'Glasbläserin')]);
          await other.upsertItems([first!]);
        } finally {
          await other.close();
        }
        await until(
          'the new person to be found',
          async () => (await runner.engine({ kind: 'person', request: toPersonSearch({ query: 'Glasbläserin' }).request })).total === 1,
        );
        await until('the new item to be found', async () => (await runner.engine(itemQuery(`id:"${first!.id}"`))).total === 1);
        const found = await runner.engine(itemQuery('*:*'));
        assert.equal(found.total, rest.length + 1);
      } finally {
        await runner.close();
        await dispose();
      }
    });
  }
}

for (const backend of BACKENDS) {
  // 1 ms slices: the 1,222 persons take several passes (500 a batch), each of which must
  // follow the last by itself. No timer of the test's own wakes the event loop meanwhile:
  // an unref'd setImmediate (the passes' scheduling before) waited for some other event,
  // so that a worker without searches never finished its build (a server never got ready).
  test(
    `[${backend.name}] the background build goes on slice after slice with nothing else to wake the thread`,
    { timeout: 60_000 },
    async () => {
      const { store, dispose } = await backend.open();
      await ingestEntities(store, [EF], { batchSize: 500 });
      const hosted = new HostedIndexes(
        store,
        { limits: { maxClauses: 1024, maxExpansionsPerTerm: 1000, maxExpansionsPerQuery: 10_000 }, indexSliceMs: 1, indexPollMs: 100 },
        () => built(),
      );
      let built: () => void = () => {};
      const done = new Promise<void>((resolve) => (built = resolve));
      // Keeps the process alive (the passes' timers are unref'd) without waking its loop before the test's timeout.
      const alive = setTimeout(() => {}, 120_000);
      try {
        hosted.start();
        await done;
        assert.equal(hosted.host.index('person').size, await store.countPersons());
      } finally {
        clearTimeout(alive);
        await hosted.close();
        await dispose();
      }
    },
  );
}

// The tests above can pass even with the fault: stray wake-ups (the garbage collector's tasks)
// carry a small build along. This one pins the cause: a pass still to do is never an unref'd
// immediate (Node runs those only when something else wakes the loop), while an idle poll is
// unref'd so that it keeps no finished process alive.
test('index work still to do is scheduled on a timer, which wakes the event loop by itself', async () => {
  const { store, dispose } = await BACKENDS[0]!.open();
  await store.upsertItems(cortexPackages().map((p) => p.item));
  let built = false;
  const hosted = new HostedIndexes(
    store,
    { limits: { maxClauses: 1024, maxExpansionsPerTerm: 1000, maxExpansionsPerQuery: 10_000 }, indexSliceMs: 1, indexPollMs: 100 },
    () => (built = true),
  );
  const timer = () => (hosted as unknown as { timer: NodeJS.Timeout | NodeJS.Immediate | undefined }).timer;
  try {
    hosted.start();
    let passes = 0;
    while (!built) {
      const t = timer();
      if (t !== undefined) {
        assert.equal(typeof (t as NodeJS.Timeout).refresh, 'function', 'the next pass of the build is a timer, not an immediate');
        passes++;
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    assert.ok(passes > 0, 'the build took more than one pass');
    assert.equal(timer()?.hasRef(), false, "the poll of a caught-up index is unref'd");
  } finally {
    await hosted.close();
    await dispose();
  }
});
