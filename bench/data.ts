/**
 * `npm run bench:data -- --persons N --items M [--out DIR] [--seed S] [--threads T]`
 *
 * The deterministic synthetic data set of the benchmark (docs/benchmarks.md). The same arguments
 * give byte-identical files.
 *
 * - DIR/persons/persons-0001.jsonl …: N persons as this service's own entity
 *   lines (spec 2.1 plus gender), 100,000 a file, for `ingest entities`.
 *   Names, occupations and places are drawn from vocabularies built from the
 *   real EntityFacts records in fixtures/ with Zipf(s = 1.1) skew, because the
 *   entity search's cost depends on how many persons a term matches: real GND
 *   data has a few terms on a quarter of all persons ("Schriftsteller") and a
 *   long tail of terms on a handful. Optional fields are missing in the real
 *   proportions (~75 % have a date of birth, ~59 % a gender), since facets and
 *   `field:*` queries depend on them. Persons 0–9 are fixed real records with
 *   stable ids (the same for every seed), for the benchmark to name.
 * - DIR/items/NNNN/<id>.xml: M cortex packages, 1,000 a folder, 10–60 KB
 *   each (the size of real packages, which decides the cost of `aip`), in
 *   hierarchy trees of depth 1 to 12 and fan-out 1 to 1,000 (most single or
 *   shallow, a few deep or wide: the cost of `parents` grows with the depth,
 *   loading with the fan-out), about 30 % referring to persons with a skew
 *   (the persons' `count`). Every package loads with `ingest items`.
 * - DIR/manifest.json: counts, the known person ids, a rare (< 100 hits), a
 *   common (1–5 %) and a very common (> 15 %) search term with their exact hit
 *   counts, a leaf at depth 12, a shallow item, example ids per depth.
 *
 * Everything is streamed: persons are written as they are made, items by
 * worker threads (a share of the trees each). Each record is a pure function of
 * (seed, index), so the output does not depend on the number of threads.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { MAX_DEPTH, planForest, KIND_NAMES, type Forest } from './synth/forest.js';
import { itemId } from './synth/items.js';
import { PersonGenerator, personLine } from './synth/persons.js';
import { KIND, loadVocab, type TokenTable } from './synth/vocab.js';
import { ITEMS_PER_FOLDER, itemFolder, writeItems, type ItemJob, type ItemJobResult } from './synth/writeItems.js';

export const DEFAULT_OUT = 'data/bench';
export const PERSONS_PER_FILE = 100_000;
export const MARKER = '.bench-data';

export interface GenerateOptions {
  persons: number;
  items: number;
  out: string;
  seed: number;
  /** Item writer threads; 1 writes in this thread. */
  threads?: number;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
  /**
   * Hand the files over as they are made instead of keeping them all: the
   * persons first, then the items in slices of whole trees. The bench loads
   * and deletes each slice, so that a data set larger than the disk's spare
   * room can be loaded: 1 M items are 27 GB of files beside 50 GB of store. The manifest is the
   * same as without.
   */
  slices?: ItemSlices;
}

export interface ItemSlices {
  /** Items a slice holds at most (whole trees, so a tree wider than this is a slice of its own). */
  items: number;
  afterPersons(): Promise<void>;
  /** The slice's files are in DIR/items; the next slice is written after this returns. */
  afterSlice(items: number): Promise<void>;
}

export interface TermHits {
  term: string;
  hits: number;
}

export interface Manifest {
  seed: number;
  persons: number;
  items: number;
  files: { persons: string[]; itemFolders: number; itemFiles: number; itemBytes: number };
  knownPersonIds: string[];
  knownPersons: Array<{ id: string; preferredName: string; items: number }>;
  rareTerm: string | null;
  rareTermHits: number;
  commonTerm: string | null;
  commonTermHits: number;
  veryCommonTerm: string | null;
  veryCommonTermHits: number;
  deepLeafId: string | null;
  deepLeafDepth: number;
  shallowItemId: string | null;
  idsByDepth: Record<string, string[]>;
  itemIdsSample: string[];
  trees: {
    count: number;
    byKind: Record<string, number>;
    byDepth: Record<string, number>;
    itemsByDepth: Record<string, number>;
    maxFanOut: number;
  };
  personRefs: { itemsWithRefs: number; refs: number; personsWithItems: number; maxItemsOfOnePerson: number };
  itemSizes: { min: number; p10: number; p50: number; p90: number; max: number; mean: number };
  vocabulary: { forenames: number; surnames: number; realSurnames: number; occupations: number; places: number };
}

/** Empties DIR of an earlier run; refuses a directory that holds anything else. */
function prepareOut(out: string): void {
  if (existsSync(out)) {
    const entries = readdirSync(out);
    const ours = entries.includes(MARKER) || entries.includes('manifest.json');
    if (entries.length > 0 && !ours)
      throw new Error(`${out} is not empty and holds no earlier bench data (${MARKER} or manifest.json); choose another --out`);
    for (const e of ['persons', 'items', 'manifest.json']) rmSync(join(out, e), { recursive: true, force: true });
  }
  mkdirSync(join(out, 'persons'), { recursive: true });
  mkdirSync(join(out, 'items'), { recursive: true });
  writeFileSync(join(out, MARKER), 'heritage-api synthetic bench data (bench/data.ts); this directory is emptied by the next run\n');
}

/** Shares trees [first, end) out to `parts` ranges of about equal item counts. */
function splitTrees(forest: Forest, parts: number, first = 0, end = forest.treeStart.length): Array<[number, number]> {
  const trees = end;
  const startItem = forest.treeStart[first] ?? forest.items;
  const endItem = forest.treeStart[end] ?? forest.items;
  const ranges: Array<[number, number]> = [];
  let from = first;
  for (let k = 1; k <= parts && from < trees; k++) {
    let to = from;
    const goal = startItem + ((endItem - startItem) * k) / parts;
    while (to < trees && (k === parts || forest.treeStart[to]! < goal)) to++;
    if (to === from) to = from + 1;
    ranges.push([from, to]);
    from = to;
  }
  return ranges;
}

function runWorker(job: ItemJob, progress: (done: number) => void): Promise<ItemJobResult> {
  const here = import.meta.url;
  const script = new URL('./synth/itemWorker' + (here.endsWith('.ts') ? '.ts' : '.js'), here);
  // Under tsx the worker must register tsx itself before it can load a .ts file.
  const worker = here.endsWith('.ts')
    ? new Worker(
        `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(script.href)}); })`,
        {
          eval: true,
          workerData: job,
        },
      )
    : new Worker(script, { workerData: job });
  return new Promise((resolvePromise, reject) => {
    let result: ItemJobResult | undefined;
    worker.on('message', (m: { type: 'progress'; done: number } | { type: 'done'; result: ItemJobResult }) => {
      if (m.type === 'progress') progress(m.done);
      else result = m.result;
    });
    worker.on('error', reject);
    worker.on('exit', (code) =>
      result && code === 0 ? resolvePromise(result) : reject(new Error(`item worker stopped with code ${code}`)),
    );
  });
}

class Progress {
  private next = 10;
  private readonly started = Date.now();
  constructor(
    private readonly what: string,
    private readonly total: number,
    private readonly log: (line: string) => void,
  ) {}

  update(done: number): void {
    if (this.total === 0) return;
    while (done * 100 >= this.next * this.total && this.next <= 100) {
      const s = (Date.now() - this.started) / 1000;
      this.log(
        `${this.what.padEnd(7)} ${String(this.next).padStart(3)} %  ${done.toLocaleString('en')}/${this.total.toLocaleString('en')}  ${Math.round(done / Math.max(s, 0.001)).toLocaleString('en')}/s`,
      );
      this.next += 10;
    }
  }
}

/** Chooses a term among vocabulary words: closest to `target` hits within [lo, hi], ties alphabetically. */
function chooseTerm(table: TokenTable, counts: Uint32Array, lo: number, hi: number, target: number): TermHits | null {
  let best = -1;
  let bestDistance = Infinity;
  for (let t = 0; t < table.size; t++) {
    const kinds = table.kinds[t]!;
    const word = table.folded[t]!;
    const hits = counts[t]!;
    if ((kinds & (KIND.forename | KIND.surname | KIND.occupation | KIND.place)) === 0 || (kinds & KIND.other) !== 0) continue;
    if (hits < lo || hits > hi || word.length < 4 || !/^\p{L}+$/u.test(word)) continue;
    const distance = Math.abs(hits - target);
    if (distance < bestDistance || (distance === bestDistance && word < table.folded[best]!)) {
      best = t;
      bestDistance = distance;
    }
  }
  return best < 0 ? null : { term: table.display[best] || table.folded[best]!, hits: counts[best]! };
}

function percentile(sorted: Uint32Array, p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Persons, streamed to files of 100,000 lines, with exact hit counts of every index token. */
async function writePersons(
  out: string,
  N: number,
  personGen: PersonGenerator,
  table: TokenTable,
  log: (line: string) => void,
): Promise<{ counts: Uint32Array; personFiles: string[] }> {
  const counts = new Uint32Array(table.size);
  const stamp = new Int32Array(table.size).fill(-1);
  const personFiles: string[] = [];
  const personProgress = new Progress('persons', N, log);
  const used: number[] = [];
  let fd = -1;
  let chunk: string[] = [];
  const flush = () => {
    if (chunk.length > 0) writeSync(fd, chunk.join(''));
    chunk = [];
  };
  for (let i = 0; i < N; i++) {
    if (i % PERSONS_PER_FILE === 0) {
      if (fd >= 0) {
        flush();
        closeSync(fd);
      }
      const name = `persons/persons-${String(i / PERSONS_PER_FILE + 1).padStart(4, '0')}.jsonl`;
      personFiles.push(name);
      fd = openSync(join(out, name), 'w');
    }
    used.length = 0;
    chunk.push(personLine(personGen.person(i, used)), '\n');
    for (const t of used) {
      if (stamp[t] !== i) {
        stamp[t] = i;
        counts[t]!++;
      }
    }
    if ((i + 1) % 10_000 === 0) {
      flush();
      personProgress.update(i + 1);
      await new Promise((r) => setImmediate(r)); // let worker progress through
    }
  }
  if (fd >= 0) {
    flush();
    closeSync(fd);
  }
  personProgress.update(N);
  return { counts, personFiles };
}

export async function generate(options: GenerateOptions): Promise<Manifest> {
  const { persons: N, items: M, seed } = options;
  const out = resolve(options.out);
  const log = options.log ?? (() => {});
  const threads = Math.max(1, options.threads ?? 1);
  prepareOut(out);

  const vocab = loadVocab();
  const personGen = new PersonGenerator(vocab, seed);
  const forest = planForest(M, seed);
  const folders = Math.ceil(M / ITEMS_PER_FOLDER);
  for (let k = 0; k < folders; k++) mkdirSync(join(out, 'items', itemFolder(k * ITEMS_PER_FOLDER, M)), { recursive: true });

  // Items: worker threads over ranges of trees (in this thread when there is one).
  const itemProgress = new Progress('items', M, log);
  let itemsBefore = 0;
  const writeTrees = (from: number, to: number): Promise<ItemJobResult[]> => {
    if (threads === 1)
      return Promise.resolve([
        writeItems({ out, seed, persons: N, items: M, fromTree: from, toTree: to }, (d) => itemProgress.update(itemsBefore + d)),
      ]);
    const ranges = splitTrees(forest, threads, from, to);
    const done = new Array<number>(ranges.length).fill(0);
    return Promise.all(
      ranges.map(([fromTree, toTree], k) =>
        runWorker({ out, seed, persons: N, items: M, fromTree, toTree }, (d) => {
          done[k] = d;
          itemProgress.update(itemsBefore + done.reduce((a, b) => a + b, 0));
        }),
      ),
    );
  };
  const trees = forest.treeStart.length;
  const results: ItemJobResult[] = [];
  let persons: Awaited<ReturnType<typeof writePersons>>;
  if (!options.slices) {
    // All at once: the items' workers first, so that persons are made meanwhile.
    const items = writeTrees(0, trees);
    persons = await writePersons(out, N, personGen, vocab.table, log);
    results.push(...(await items));
  } else {
    const slices = options.slices;
    persons = await writePersons(out, N, personGen, vocab.table, log);
    await slices.afterPersons();
    /** The item after the last of the tree. */
    const endOf = (tree: number) => forest.treeStart[tree + 1] ?? M;
    for (let from = 0; from < trees;) {
      let to = from + 1;
      while (to < trees && endOf(to) - forest.treeStart[from]! <= slices.items) to++;
      results.push(...(await writeTrees(from, to)));
      const items = endOf(to - 1) - forest.treeStart[from]!;
      itemsBefore += items;
      await slices.afterSlice(items);
      from = to;
    }
  }
  const { counts, personFiles } = persons;

  const sizes = new Uint32Array(M);
  const perPerson = new Uint32Array(N);
  let itemsWithRefs = 0;
  let refs = 0;
  for (const r of results) {
    sizes.set(r.sizes, r.first);
    for (let p = 0; p < N; p++) perPerson[p]! += r.perPerson[p]!;
    itemsWithRefs += r.itemsWithRefs;
    refs += r.refs;
  }

  const manifest = buildManifest(
    options,
    forest,
    personGen,
    vocab.table,
    counts,
    sizes,
    perPerson,
    itemsWithRefs,
    refs,
    personFiles,
    folders,
  );
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

function buildManifest(
  options: GenerateOptions,
  forest: Forest,
  personGen: PersonGenerator,
  table: TokenTable,
  counts: Uint32Array,
  sizes: Uint32Array,
  perPerson: Uint32Array,
  itemsWithRefs: number,
  refs: number,
  personFiles: string[],
  folders: number,
): Manifest {
  const { persons: N, items: M, seed } = options;
  const vocab = personGen.vocab;
  const known = Math.min(N, personGen.knownCount);
  const knownPersons = Array.from({ length: known }, (_, i) => {
    const p = personGen.person(i);
    return { id: p.id, preferredName: p.preferredName, items: perPerson[i]! };
  });

  const rareCap = Math.min(99, Math.max(1, Math.floor(N / 1000)));
  const rare = chooseTerm(table, counts, 1, rareCap, Math.ceil(rareCap / 2)) ?? chooseTerm(table, counts, 1, N, 1);
  const common =
    chooseTerm(table, counts, Math.max(1, Math.ceil(N * 0.01)), Math.floor(N * 0.05), N * 0.025) ??
    chooseTerm(table, counts, 1, N, N * 0.025);
  const veryCommon = chooseTerm(table, counts, 1, N, N);

  // Trees and depths.
  const byKind: Record<string, number> = {};
  const byDepth: Record<string, number> = {};
  forest.treeKind.forEach((k, t) => {
    byKind[KIND_NAMES[k]] = (byKind[KIND_NAMES[k]] ?? 0) + 1;
    const d = String(forest.treeDepth[t]);
    byDepth[d] = (byDepth[d] ?? 0) + 1;
  });
  const itemsByDepth: Record<string, number> = {};
  const idsByDepth: Record<string, string[]> = {};
  const seenTree: Array<Set<number>> = Array.from({ length: MAX_DEPTH + 1 }, () => new Set());
  let maxFanOut = 0;
  let deepLeaf = -1;
  let shallow = -1;
  let anyShallow = -1;
  for (let i = 0; i < M; i++) {
    const d = forest.depth[i]!;
    const key = String(d);
    itemsByDepth[key] = (itemsByDepth[key] ?? 0) + 1;
    if (forest.children[i]! > maxFanOut) maxFanOut = forest.children[i]!;
    // A few examples per depth, each from another tree.
    const t = forest.tree[i]!;
    const ids = (idsByDepth[key] ??= []);
    if (ids.length < 5 && !seenTree[d]!.has(t)) {
      seenTree[d]!.add(t);
      ids.push(itemId(seed, i));
    }
    if (deepLeaf < 0 && d === MAX_DEPTH && forest.children[i] === 0) deepLeaf = i;
    if (shallow < 0 && d === 2 && forest.children[i] === 0) shallow = i;
    if (anyShallow < 0 && d === 2) anyShallow = i;
  }
  if (shallow < 0) shallow = anyShallow;
  const sorted = sizes.slice().sort();
  let bytes = 0;
  for (const s of sizes) bytes += s;
  let personsWithItems = 0;
  let maxItems = 0;
  for (const c of perPerson) {
    if (c > 0) personsWithItems++;
    if (c > maxItems) maxItems = c;
  }
  return {
    seed,
    persons: N,
    items: M,
    files: { persons: personFiles, itemFolders: folders, itemFiles: M, itemBytes: bytes },
    knownPersonIds: knownPersons.map((p) => p.id),
    knownPersons,
    rareTerm: rare?.term ?? null,
    rareTermHits: rare?.hits ?? 0,
    commonTerm: common?.term ?? null,
    commonTermHits: common?.hits ?? 0,
    veryCommonTerm: veryCommon?.term ?? null,
    veryCommonTermHits: veryCommon?.hits ?? 0,
    deepLeafId: deepLeaf >= 0 ? itemId(seed, deepLeaf) : null,
    deepLeafDepth: deepLeaf >= 0 ? MAX_DEPTH : 0,
    shallowItemId: shallow >= 0 ? itemId(seed, shallow) : M > 0 ? itemId(seed, 0) : null,
    idsByDepth,
    itemIdsSample: Array.from({ length: Math.min(20, M) }, (_, k) => itemId(seed, Math.floor((k * M) / Math.min(20, M)))),
    trees: { count: forest.treeStart.length, byKind, byDepth, itemsByDepth, maxFanOut },
    personRefs: { itemsWithRefs, refs, personsWithItems, maxItemsOfOnePerson: maxItems },
    itemSizes: {
      min: sorted[0] ?? 0,
      p10: percentile(sorted, 10),
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      max: sorted[sorted.length - 1] ?? 0,
      mean: M === 0 ? 0 : Math.round(bytes / M),
    },
    vocabulary: {
      forenames: vocab.forenames.length + vocab.femaleForenames.length,
      surnames: vocab.surnames.length,
      realSurnames: vocab.realSurnames,
      occupations: vocab.occupations.length,
      places: vocab.places.length,
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      persons: { type: 'string' },
      items: { type: 'string' },
      out: { type: 'string', default: DEFAULT_OUT },
      seed: { type: 'string', default: '1' },
      threads: { type: 'string', default: String(Math.min(2, availableParallelism())) },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  const usage = 'usage: npm run bench:data -- --persons N --items M [--out DIR] [--seed S] [--threads T]';
  if (values.help) {
    console.log(usage);
    return;
  }
  const int = (name: string, v: string | undefined, min: number): number => {
    const n = Number(v);
    if (v === undefined || !/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < min)
      throw new Error(`--${name} needs a whole number ≥ ${min}\n${usage}`);
    return n;
  };
  const persons = int('persons', values.persons, 0);
  const items = int('items', values.items, 0);
  if (persons > 99_999_999) throw new Error('--persons: at most 99,999,999');
  const seed = int('seed', values.seed, 0) >>> 0;
  const threads = int('threads', values.threads, 1);
  const log = (line: string) => process.stderr.write(`[bench:data] ${line}\n`);
  const started = Date.now();
  log(
    `${persons.toLocaleString('en')} persons, ${items.toLocaleString('en')} items, seed ${seed}, ${threads} item thread(s) -> ${values.out}`,
  );
  const m = await generate({ persons, items, out: values.out, seed, threads, log });
  const s = (Date.now() - started) / 1000;
  log(
    `done in ${s.toFixed(1)} s: ${m.files.persons.length} person file(s), ${m.items.toLocaleString('en')} items (${(m.files.itemBytes / 1e9).toFixed(2)} GB) in ${m.files.itemFolders} folders`,
  );
  log(
    `terms: rare ${m.rareTerm} (${m.rareTermHits}), common ${m.commonTerm} (${m.commonTermHits}), very common ${m.veryCommonTerm} (${m.veryCommonTermHits}); manifest: ${join(values.out, 'manifest.json')}`,
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((e: unknown) => {
    process.stderr.write(`[bench:data] ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
