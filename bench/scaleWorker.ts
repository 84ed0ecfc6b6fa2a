/**
 * A search thread of the scale benchmark (bench/scale.ts): restores both indexes from the
 * files on disk as a search worker of the server does (docs/search-engine.md "One copy per
 * process": over the generation its process read once into shared memory, or, alone,
 * from the files itself), then answers one op at a time. The thread's priority is left as
 * it is (the server lowers it, search.niceness): the bench times the engine, not the
 * scheduler of a machine shared with other work.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { readIndexes, sharedSources, type SharedIndexes } from '../src/search/indexFiles.js';
import { SCHEMAS } from '../src/search/indexHost.js';
import { SearchIndex } from '../src/search/engine/SearchIndex.js';
import { fold } from '../src/search/engine/fold.js';
import type { SearchKind } from '../src/domain/searchFeed.js';
import type { PersonTerms, ScaleAnswer, ScaleOp, ScaleSetup, ToScaleWorker } from './scaleOps.js';
import type { ItemTerms } from './itemSearch.js';
import { word } from './engineDocs.js';

const setup = workerData as ScaleSetup;
const port = parentPort!;
const started = performance.now();

/** Each kind's restore, in ms (SearchIndex.fromImage). */
const kindMs: Record<string, number> = {};

async function restore(): Promise<Record<SearchKind, SearchIndex>> {
  const sources = setup.shared ? sharedSources(setup.shared as SharedIndexes) : (await readIndexes(setup.dir, setup.identity)).sources;
  const timed = (kind: SearchKind) => {
    const t0 = performance.now();
    const index = SearchIndex.fromImage(SCHEMAS[kind], sources[kind]);
    kindMs[kind] = performance.now() - t0;
    return index;
  };
  return { person: timed('person'), item: timed('item') };
}

const indexes = await restore();
/** The live heap of this thread: what it holds beyond the shared index bytes (dictionaries, caches). */
function heap(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return getHeapStatistics().used_heap_size;
}

port.postMessage({ type: 'ready', ms: performance.now() - started, kinds: kindMs, heap: heap() } satisfies ScaleAnswer);

/** Hits of a term by the documents ever indexed with it (exact here: the bench deletes nothing). */
function hitsOf(ix: SearchIndex, w: string): number {
  const id = ix.terms.get(fold(w));
  return id === undefined ? 0 : (ix.termDocs.array[id] ?? 0);
}

interface Counted {
  w: string;
  h: number;
}

/** The candidate nearest `goal` hits among those with `lo`..`hi` hits and at least `minLength` letters. */
function nearest(counted: Counted[], lo: number, hi: number, goal: number, minLength = 1): Counted | undefined {
  return nearestAll(counted, lo, hi, goal, minLength)[0];
}

function nearestAll(counted: Counted[], lo: number, hi: number, goal: number, minLength = 1): Counted[] {
  return counted
    .filter((c) => c.h >= lo && c.h <= hi && c.w.length >= minLength)
    .sort((a, b) => Math.abs(a.h - goal) - Math.abs(b.h - goal) || (a.w < b.w ? -1 : 1));
}

/**
 * Common words to misspell, nearest 2.5 % of the documents first: the misspelt rows need one
 * whose misspelling finds nothing and is corrected back to it (bench/pageCases.ts
 * misspelling), which not every word of the generator has (a misspelling of a random word is
 * often nearer another one), and a letter to drop or swap past the second (four or more).
 */
function toMisspell(counted: Counted[], n: number): string[] {
  return nearestAll(counted, Math.max(1, Math.ceil(n * 0.001)), n, n * 0.025, 4)
    .slice(0, 40)
    .map((c) => c.w);
}

/**
 * The person terms as bench/data.ts chooses them from its name table: a rare one (about
 * half of min(99, persons / 1000) hits), a common one (1–5 % of the persons, nearest 2.5 %),
 * the very common one (the most hits); among the words names are made of (bench/engineDocs.ts).
 */
function personTerms(): PersonTerms {
  const ix = indexes.person;
  const n = ix.size;
  const counted = Array.from({ length: 20_000 }, (_, r) => ({ w: word(r), h: hitsOf(ix, word(r)) }));
  const rareCap = Math.min(99, Math.max(1, Math.floor(n / 1000)));
  const rare = nearest(counted, 1, rareCap, Math.ceil(rareCap / 2)) ?? nearest(counted, 1, n, 1)!;
  const common = nearest(counted, Math.max(1, Math.ceil(n * 0.01)), Math.floor(n * 0.05), n * 0.025) ?? nearest(counted, 1, n, n * 0.025)!;
  const veryCommon = nearest(counted, 1, n, n)!;
  return {
    rare: rare.w,
    common: common.w,
    veryCommon: veryCommon.w,
    spell: toMisspell(counted, n),
    hits: { rare: rare.h, common: common.h, veryCommon: veryCommon.h },
  };
}

/**
 * The item terms of bench/itemSearch.ts's rows: a rare one (< 100 hits), a common one (1–5 %
 * of the items, nearest 2.5 %) and the very common one (the most hits), the first two of four
 * letters or more as that chooser takes them from titles. The words are the generator's
 * (bench/engineDocs.ts): its commonest have three letters and are in most documents, as
 * the HTTP bench's very common word ('über') is in half of them.
 */
function itemTerms(): Omit<ItemTerms, 'topType' | 'topSector'> & { spell: string[] } {
  const ix = indexes.item;
  const n = ix.size;
  const counted = Array.from({ length: 150_000 }, (_, r) => ({ w: word(r), h: hitsOf(ix, word(r)) }));
  const rare = nearest(counted, 1, 99, 50, 4) ?? nearest(counted, 1, n, 1)!;
  const common =
    nearest(counted, Math.max(1, Math.ceil(n * 0.01)), Math.floor(n * 0.05), n * 0.025, 4) ?? nearest(counted, 1, n, n * 0.025, 4)!;
  const veryCommon = nearest(counted, 1, n, n)!;
  return {
    rare: rare.w,
    common: common.w,
    veryCommon: veryCommon.w,
    spell: toMisspell(counted, n),
    hits: { rare: rare.h, common: common.h, veryCommon: veryCommon.h },
  };
}

function run(op: ScaleOp): unknown {
  switch (op.op) {
    case 'engine': {
      const r = indexes[op.kind].search(op.request, Date.now() + 600_000);
      return { total: r.total, ids: r.ids, facets: r.facets, nextCursor: r.nextCursor, correctedQuery: r.correctedQuery };
    }
    case 'part':
      return indexes[op.kind].searchPart(op.request, Date.now() + 600_000, op.shard, op.shards);
    case 'suggest':
      return indexes[op.kind].suggest(op.prefix, op.limit);
    case 'personTerms':
      return personTerms();
    case 'itemTerms':
      return itemTerms();
    case 'heap':
      return heap();
  }
}

port.on('message', (m: ToScaleWorker) => {
  try {
    port.postMessage({ type: 'done', id: m.id, result: run(m.op) } satisfies ScaleAnswer);
  } catch (e) {
    port.postMessage({ type: 'failed', id: m.id, message: (e as Error).stack ?? String(e) } satisfies ScaleAnswer);
  }
});
