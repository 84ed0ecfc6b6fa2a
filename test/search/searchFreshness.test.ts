/**
 * Fresh without stalls (issue #14 point 6), on the service's search runners (workers, and
 * the main thread without them): a start builds the indexes in the background and a
 * search waits for its kind's build; a record committed by another connection (another
 * process: an ingest) becomes findable without any search asking for a refresh, by the
 * background's polling of the change feed. Tests wait for conditions, never for a time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { toEntitySearch } from '../../src/http/routes/entities.js';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import type { Person } from '../../src/domain/person.js';
import { preparePerson } from '../../src/ingest/persons/preparePerson.js';
import { parseQuery } from '../../src/query/parse.js';
import { itemSchema, queryFields } from '../../src/search/engine/schema.js';
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
  preparePerson({ id, type: 'person', preferredName: 'Probe Person', variantName: [], professionOrOccupation: [occupation] } as unknown as Person);

const itemQuery = (q: string) => ({
  kind: 'item' as const,
  request: { query: parseQuery(q, { fields: queryFields(itemSchema) }), sort: { kind: 'id' as const, descending: false }, offset: 0, rows: 10 },
});

for (const backend of BACKENDS) {
  for (const workers of [1, 0]) {
    const where = workers === 0 ? 'the main thread' : 'a worker';
    test(`[${backend.name}] on ${where}: a search waits for the first build, and another connection's commits become findable by themselves`, async () => {
      const { store, location: path, dispose } = await backend.open();
      await ingestEntities(store, [EF], { batchSize: 500 });
      const [first, ...rest] = cortexPackages().map((p) => p.item);
      (await store.upsertItems(rest));
      const runner: SearchRunner = createSearchRunner(store, loadConfig({ flags: { search: { workers } } }).search);
      try {
        assert.equal(runner.state().indexBuilt, false, 'nothing is built before the start');
        // Asked at once, before any build: it waits for the person index and sees every person.
        const all = await runner.run(toEntitySearch({ query: '*:*', rows: '0' }).search);
        assert.equal(all.total, (await store.countPersons()));
        await until('both indexes built', () => runner.state().indexBuilt);
        assert.ok(runner.state().index !== undefined, 'the index knows what it caught up with');
        assert.equal((await runner.engine(itemQuery('*:*'))).total, rest.length);

        const other = (await backend.connect(path));
        try {
          (await other.upsertPersons([person('http://d-nb.info/gnd/999991', 'Glasbläserin')]));
          (await other.upsertItems([first!]));
        } finally {
          other.close();
        }
        await until('the new person to be found', async () => (await runner.run(toEntitySearch({ query: 'Glasbläserin' }).search)).total === 1);
        await until('the new item to be found', async () => (await runner.engine(itemQuery(`id:"${first!.id}"`))).total === 1);
        const found = await runner.engine(itemQuery('*:*'));
        assert.equal(found.total, rest.length + 1);
      } finally {
        await runner.close();
        dispose();
      }
    });
  }
}

for (const backend of BACKENDS) {
  // The start's build must run by itself: a search worker's thread has nothing else that wakes
  // its event loop, and a build whose passes were unref'd immediates crept along at a pass per
  // stray wake-up (a 10,000-item store was not built after 15 minutes; /health/ready stayed 503).
  // No search is asked here, so nothing but the background build can finish it.
  test(`[${backend.name}] in a worker: the start builds both indexes with no search asking`, async () => {
    const { store, dispose } = await backend.open();
    await ingestEntities(store, [EF], { batchSize: 500 });
    const packages = cortexPackages().map((p) => p.item);
    await store.upsertItems(packages);
    // Slices of 1 ms: the build takes a pass per batch, many passes in all.
    const runner = createSearchRunner(store, loadConfig({ flags: { search: { workers: 1, indexSliceMs: 1 } } }).search);
    try {
      runner.start();
      const deadline = Date.now() + 60_000;
      while (!runner.state().indexBuilt) {
        if (Date.now() > deadline) assert.fail('the background build did not finish within 60 s of the start');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal((await runner.engine(itemQuery('*:*'))).total, packages.length);
    } finally {
      await runner.close();
      await dispose();
    }
  });
}

// Why the test above can pass even with the fault: stray wake-ups (the garbage collector's
// tasks, a small store's few passes) can carry a small build along. This one pins the cause:
// while there is index work to do, the next pass must keep the event loop running.
test('index work still to do is scheduled so that it keeps the event loop running; an idle poll does not', async () => {
  const { store, dispose } = await BACKENDS[0]!.open();
  await store.upsertItems(cortexPackages().map((p) => p.item));
  const settings = loadConfig({ flags: { search: { indexSliceMs: 1 } } }).search;
  let built = false;
  const hosted = new HostedIndexes(store, { limits: settings, indexSliceMs: 1, indexPollMs: settings.indexPollMs }, () => (built = true));
  const timer = () => (hosted as unknown as { timer: NodeJS.Timeout | NodeJS.Immediate | undefined }).timer;
  try {
    hosted.start();
    let buildingPasses = 0;
    while (!built) {
      const t = timer();
      if (t !== undefined) {
        assert.equal(t.hasRef(), true, 'a pass of the build is scheduled ref\'d');
        buildingPasses++;
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    assert.ok(buildingPasses > 0, 'the build took more than one pass');
    // Caught up: the next pass is a poll, which must not keep a finished process alive.
    await new Promise((resolve) => setTimeout(resolve, 1));
    assert.equal(timer()?.hasRef(), false, 'the poll of a caught-up index is unref\'d');
  } finally {
    hosted.close();
    await dispose();
  }
});
