/**
 * `heritage-api index status|verify|rebuild`: the search indexes on disk, for operators
 * (docs/cli.md; the format: docs/search-engine.md "Persistence").
 */
import { SearchIndex } from '../../search/engine/SearchIndex.js';
import { resolve } from 'node:path';
import { copyIndexes, IndexProblem, readIndexes, type IndexManifest } from '../../search/indexFiles.js';
import { IndexHost, SCHEMAS } from '../../search/indexHost.js';
import { searchIndexPath } from '../../search/indexPath.js';
import { searchLanguages } from '../../search/searchPool.js';
import type { Config } from '../../config.js';
import type { Store } from '../../store/Store.js';
import { EXIT, type CliIo } from '../io.js';

const KINDS = ['person', 'item'] as const;
const NAMES = { person: 'persons', item: 'items' } as const;

function dirOf(config: Config, io: CliIo): string | undefined {
  const dir = searchIndexPath(config);
  if (dir === undefined)
    io.err('search.persist is off (or the store is in memory): there is no search index on disk. Set search.persist to true to keep one.');
  return dir;
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

function describe(manifest: IndexManifest, io: CliIo): void {
  io.out(`Generation ${manifest.generation} (format ${manifest.format}), written ${manifest.writtenAt}, of store ${manifest.store}.`);
  for (const kind of KINDS) {
    const k = manifest.kinds[kind];
    io.out(`  ${NAMES[kind]}: ${k.documents} documents, ${mb(k.bytes)}, through ${k.position} (${k.file})`);
  }
}

/** Reads what `dir` holds for this store; a problem is said on stderr with what a start does about it. */
async function read(dir: string, store: Store, io: CliIo) {
  try {
    const found = await readIndexes(dir, await store.searchIdentity());
    for (const p of found.problems) io.err(`${p.message}; a start reads generation ${found.manifest.generation} instead.`);
    return found;
  } catch (e) {
    if (!(e instanceof IndexProblem)) throw e;
    io.err(`${e.message}: a start builds a new one from the store (heritage-api index rebuild does it now).`);
    return undefined;
  }
}

/** `index status`: where the index is, which generation a start reads and what it holds. Exit 1 when a start would rebuild. */
export async function indexStatus(config: Config, store: Store, io: CliIo): Promise<number> {
  const dir = dirOf(config, io);
  if (dir === undefined) return EXIT.failed;
  io.out(`Search index: ${dir}`);
  const found = await read(dir, store, io);
  if (found === undefined) return EXIT.failed;
  describe(found.manifest, io);
  return EXIT.ok;
}

/** `index verify`: every section's checksum, and both indexes read back as a start reads them. */
export async function indexVerify(config: Config, store: Store, io: CliIo): Promise<number> {
  const dir = dirOf(config, io);
  if (dir === undefined) return EXIT.failed;
  const found = await read(dir, store, io);
  if (found === undefined) return EXIT.failed;
  const counts: string[] = [];
  try {
    const options = { languages: searchLanguages(config.search.languages) };
    for (const kind of KINDS) counts.push(`${SearchIndex.fromImage(SCHEMAS[kind], found.sources[kind], options).size} ${NAMES[kind]}`);
  } catch (e) {
    io.err(
      `${dir}: generation ${found.manifest.generation} does not read back: ${(e as Error).message}. A start builds a new index from the store.`,
    );
    return EXIT.failed;
  }
  const sections = KINDS.reduce((n, k) => n + found.manifest.kinds[k].sections.length, 0);
  io.out(
    `${dir}: generation ${found.manifest.generation} verified: ${sections} sections match their checksums; read back, it holds ${counts.join(' and ')}.`,
  );
  return found.problems.length === 0 ? EXIT.ok : EXIT.failed;
}

/** `index rebuild`: builds both indexes from the store now, in this process, and writes them as a new generation. */
export async function indexRebuild(config: Config, store: Store, io: CliIo): Promise<number> {
  const dir = dirOf(config, io);
  if (dir === undefined) return EXIT.failed;
  const started = Date.now();
  // From the store, not from what is on disk.
  const host = new IndexHost(
    store,
    { languages: searchLanguages(config.search.languages) },
    { dir, read: false, write: true, minGapMs: 0, intervalMs: 0, changes: () => 0, log: (line) => io.err(line) },
  );
  for (const kind of KINDS) while (!(await host.refresh(kind, 1000))) continue;
  if (!(await host.write())) return EXIT.failed;
  const found = await readIndexes(dir, await store.searchIdentity());
  io.out(
    `Built the search indexes from the store in ${((Date.now() - started) / 1000).toFixed(1)} s (${host.index('person').size} persons, ${host.index('item').size} items) ` +
      `and wrote them to ${dir} as generation ${found.manifest.generation}. A server reads them at its next start.`,
  );
  return EXIT.ok;
}

/**
 * `index copy <to>`: the newest generation, copied into `to` while a server may go on writing
 * and serving from the index (indexFiles.ts copyIndexes), to seed another node
 * (docs/deployment.md "A new node from another node's index").
 */
export async function indexCopy(config: Config, store: Store, to: string, io: CliIo): Promise<number> {
  const dir = dirOf(config, io);
  if (dir === undefined) return EXIT.failed;
  const target = resolve(to);
  if (target === dir) {
    io.err(`${target} is this server's own search index (search.path): give another directory to copy it to.`);
    return EXIT.failed;
  }
  const started = Date.now();
  try {
    const { manifest, bytes } = await copyIndexes(dir, target, await store.searchIdentity());
    io.out(
      `Copied generation ${manifest.generation} (${manifest.kinds.person.documents} persons, ${manifest.kinds.item.documents} items, ${mb(bytes)}) ` +
        `from ${dir} to ${target} in ${((Date.now() - started) / 1000).toFixed(1)} s. A server with search.path ${target} on this store starts from it ` +
        'and catches up from the change feed.',
    );
    return EXIT.ok;
  } catch (e) {
    if (!(e instanceof IndexProblem)) throw e;
    io.err(`${e.message}: nothing was copied.`);
    return EXIT.failed;
  }
}
