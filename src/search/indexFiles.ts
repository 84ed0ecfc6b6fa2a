/**
 * The search indexes on disk (docs/search-engine.md "Persistence"): immutable segment files,
 * one per kind, and a small manifest per generation naming them, the store they reflect
 * (Store.searchIdentity), the change feed's position each index holds, the format version,
 * and a CRC-32 per section.
 *
 * Crash safety: a generation's files are written under temporary names, fsynced, renamed,
 * and the directory fsynced; only then is its manifest written the same way. A manifest
 * exists only once every file it names is complete on disk, and the two newest
 * generations are kept: a kill at any moment leaves the last complete index or the one
 * before it, never a torn one. A reader takes the newest manifest whose files all verify.
 * Writers take turns (./indexWriteLock.ts), so that two never number or prune at once.
 *
 * A segment is its sections one after another, each at an offset that is a multiple of 64,
 * as the typed arrays lie in memory: a later reader can map or read a file into one
 * (shared) buffer and view each section in place, and a shard is one more segment.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { ImageSource, type IndexImageData, type SectionType } from './engine/indexImage.js';
import type { SearchKind } from '../domain/searchFeed.js';
import { withIndexWriteLock } from './indexWriteLock.js';

/**
 * The format of the files. Move it whenever an index written before would read back wrong:
 * the layout of a section, what the engine keeps per document or term, and also the
 * analysis of text (engine/fold.ts, engine/analyzer.ts, engine/analysis.ts; format 2 added the analysed forms, 3 the gap of 101 positions between values; 4 front-codes the dictionaries: engine/frontCoded.ts; 5 gives the postings pools 64 GiB of addresses: engine/listPool.ts) or how a stored body becomes a
 * document (src/formats/itemFields.ts, schemas/itemDocument.ts, schemas/personDocument.ts): an index is the documents as
 * they were mapped when it was written. (A schema change is caught by the schema's
 * fingerprint, SearchIndex.ts schemaFingerprint.)
 */
export const INDEX_FORMAT = 5;

const ALIGN = 64;
const MANIFEST = /^manifest-(\d{6,})\.json$/;

export interface SectionEntry {
  name: string;
  type: SectionType;
  offset: number;
  bytes: number;
  crc32: number;
  /**
   * In memory only (never in a manifest on disk): bytes from `offset` the section may grow
   * into, for the replicas of a pool (readSharedIndexes `room`).
   */
  room?: number;
}

export interface KindEntry {
  file: string;
  /** Size of the file in bytes. */
  bytes: number;
  /** The change feed's position the index holds (Store.readSearchChanges). */
  position: string;
  /** Live documents. */
  documents: number;
  values: Record<string, unknown>;
  sections: SectionEntry[];
}

export interface IndexManifest {
  format: number;
  generation: number;
  /** The store's identity (Store.searchIdentity). */
  store: string;
  writtenAt: string;
  kinds: Record<SearchKind, KindEntry>;
}

/** One kind's index to write: its image (SearchIndex.image) and the position it holds. */
export interface KindImage {
  image: IndexImageData;
  position: string;
  documents: number;
}

/** The generations on disk, newest first. */
export async function manifestsIn(dir: string): Promise<Array<{ generation: number; file: string }>> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return names
    .map((file) => ({ file, m: MANIFEST.exec(file) }))
    .filter((x) => x.m !== null)
    .map((x) => ({ generation: Number(x.m![1]), file: x.file }))
    .sort((a, b) => b.generation - a.generation);
}

async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, constants.O_RDONLY);
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * `n` rounded up to a multiple of ALIGN. Arithmetic, not a bit mask: a mask works on 32-bit
 * integers, and an item segment passes 2 GiB at about 5 M items (the mask made its length
 * negative, and truncating the file to it left an empty file under a complete manifest).
 */
export const alignedOffset = (n: number) => Math.ceil(n / ALIGN) * ALIGN;

/**
 * Writes one kind's segment under a temporary name and renames it once synced; its entry.
 * Each piece of a section is copied before the write is awaited: the index goes on
 * changing between two pieces (searches and updates run then), and a section's bytes are
 * checksummed as written.
 */
async function writeSegment(dir: string, file: string, kind: KindImage): Promise<KindEntry> {
  const tmp = join(dir, `${file}.tmp`);
  const fh = await open(tmp, 'w');
  const sections: SectionEntry[] = [];
  let offset = 0;
  try {
    for (const s of kind.image.sections) {
      offset = alignedOffset(offset);
      let bytes = 0;
      let crc = 0;
      for (const piece of s.pieces()) {
        const copy = Buffer.from(piece);
        crc = crc32(copy, crc);
        if (copy.length > 0) await fh.write(copy, 0, copy.length, offset + bytes);
        bytes += copy.length;
      }
      sections.push({ name: s.name, type: s.type, offset, bytes, crc32: crc });
      offset += bytes;
    }
    await fh.truncate(offset);
    await fh.sync();
    // What the manifest will say of the file must be what is on disk: checked before it names it.
    const { size } = await fh.stat();
    if (size !== offset) throw new Error(`${tmp} holds ${size} bytes after its write, not ${offset}`);
  } finally {
    await fh.close();
  }
  await rename(tmp, join(dir, file));
  return { file, bytes: offset, position: kind.position, documents: kind.documents, values: kind.image.values, sections };
}

/**
 * Writes a new generation of both kinds' indexes into `dir` (made if missing) and its
 * manifest last; removes what is older than the generation before. Returns the manifest.
 */
export async function writeIndexes(dir: string, store: string, kinds: Record<SearchKind, KindImage>): Promise<IndexManifest> {
  await mkdir(dir, { recursive: true });
  return withIndexWriteLock(dir, () => writeGeneration(dir, store, kinds));
}

/** writeIndexes, under the directory's write lock: the number, the files, the manifest, the pruning. */
async function writeGeneration(dir: string, store: string, kinds: Record<SearchKind, KindImage>): Promise<IndexManifest> {
  const generation = ((await manifestsIn(dir))[0]?.generation ?? 0) + 1;
  const gen = String(generation).padStart(6, '0');
  const token = randomBytes(4).toString('hex');
  const entries: Partial<Record<SearchKind, KindEntry>> = {};
  for (const kind of ['person', 'item'] as const) entries[kind] = await writeSegment(dir, `${kind}-${gen}-${token}.seg`, kinds[kind]);
  await fsyncDir(dir);
  const manifest: IndexManifest = {
    format: INDEX_FORMAT,
    generation,
    store,
    writtenAt: new Date().toISOString(),
    kinds: entries as Record<SearchKind, KindEntry>,
  };
  const name = `manifest-${gen}.json`;
  const tmp = join(dir, `${name}.${token}.tmp`);
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(JSON.stringify(manifest));
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, join(dir, name));
  await fsyncDir(dir);
  await prune(dir);
  return manifest;
}

/** Keeps the two newest generations and what they name; removes every other manifest, segment and temporary file. */
export async function prune(dir: string): Promise<void> {
  const manifests = await manifestsIn(dir);
  const keep = new Set<string>();
  for (const m of manifests.slice(0, 2)) {
    keep.add(m.file);
    try {
      const manifest = JSON.parse(await readFile(join(dir, m.file), 'utf8')) as IndexManifest;
      for (const k of Object.values(manifest.kinds ?? {})) keep.add(k.file);
    } catch {
      // an unreadable manifest keeps nothing but itself: a reader skips it
    }
  }
  for (const name of await readdir(dir)) {
    if (keep.has(name)) continue;
    if (MANIFEST.test(name) || name.endsWith('.seg') || name.endsWith('.tmp')) await rm(join(dir, name), { force: true });
  }
}

/** What was found in a directory: the newest usable generation, and why newer ones (if any) were not. */
export interface ReadIndexes {
  manifest: IndexManifest;
  sources: Record<SearchKind, ImageSource>;
}

/**
 * A generation read once into shared memory, one SharedArrayBuffer per segment file, for
 * every search thread of the process (docs/search-engine.md "One copy per process"): plain
 * data, which crosses to a worker without a copy of the buffers. `sharedSources` views it.
 */
export interface SharedIndexes {
  manifest: IndexManifest;
  buffers: Record<SearchKind, SharedArrayBuffer>;
}

/** Why an index on disk cannot be used: one line for the log and for `index status`. */
export class IndexProblem extends Error {
  override readonly name = 'IndexProblem';
  constructor(
    readonly reason: 'missing' | 'format' | 'store' | 'damaged',
    message: string,
  ) {
    super(message);
  }
}

async function readManifest(dir: string, file: string): Promise<IndexManifest> {
  let manifest: IndexManifest;
  try {
    manifest = JSON.parse(await readFile(join(dir, file), 'utf8')) as IndexManifest;
  } catch (e) {
    throw new IndexProblem('damaged', `${join(dir, file)} is damaged: ${(e as Error).message}`);
  }
  if (typeof manifest !== 'object' || manifest === null || typeof manifest.kinds !== 'object' || manifest.kinds === null) {
    throw new IndexProblem('damaged', `${join(dir, file)} is damaged: not a manifest`);
  }
  return manifest;
}

/** The sections of a segment read whole into `buffer` (checked by the caller), as a shared image. */
function sharedSource(path: string, entry: KindEntry, buffer: SharedArrayBuffer, replicated = false): ImageSource {
  const sections = new Map<string, { type: SectionType; bytes: Uint8Array }>();
  for (const s of entry.sections) {
    if (!(s.offset >= 0 && s.bytes >= 0 && s.offset + s.bytes <= buffer.byteLength && s.offset % ALIGN === 0))
      throw new IndexProblem('damaged', `${path} is damaged: section ${s.name} lies outside the file`);
    const room = s.room !== undefined && s.offset + s.room <= buffer.byteLength ? new Uint8Array(buffer, s.offset, s.room) : undefined;
    sections.set(s.name, { type: s.type, bytes: new Uint8Array(buffer, s.offset, s.bytes), ...(room ? { room } : {}) });
  }
  return new ImageSource(entry.values, sections, true, replicated);
}

/**
 * The images of a generation read into shared memory (readIndexes with `shared`), in this
 * thread; `replicated`: by replicas of a pool, which write the pools' chunks in place
 * (ImageSource.replicated), so the buffers must be read anew for each start of their stream.
 */
export function sharedSources(shared: SharedIndexes, replicated = false): Record<SearchKind, ImageSource> {
  const out: Partial<Record<SearchKind, ImageSource>> = {};
  for (const kind of ['person', 'item'] as const) {
    const entry = shared.manifest.kinds[kind];
    out[kind] = sharedSource(entry.file, entry, shared.buffers[kind], replicated);
  }
  return out as Record<SearchKind, ImageSource>;
}

/** Bytes read, and checksummed, at a time: 64 MiB. */
const READ_PIECE = 64 * 2 ** 20;
/** Pieces being read while one is checksummed. */
const READS_AHEAD = 3;

/** The CRC-32 of each section of a segment, from its bytes given in file order, piece by piece. */
class SectionSums {
  private readonly sections: SectionEntry[];
  private readonly crcs: number[];

  constructor(sections: readonly SectionEntry[]) {
    this.sections = [...sections].sort((a, b) => a.offset - b.offset);
    this.crcs = this.sections.map(() => 0);
  }

  /** The file's bytes from offset `at` on (the pieces in order, none skipped). */
  add(piece: Uint8Array, at: number): void {
    const end = at + piece.length;
    this.sections.forEach((s, i) => {
      const lo = Math.max(s.offset, at);
      const hi = Math.min(s.offset + s.bytes, end);
      if (lo < hi) this.crcs[i] = crc32(piece.subarray(lo - at, hi - at), this.crcs[i]);
    });
  }

  /** Throws IndexProblem('damaged') naming the first section whose checksum fails. */
  check(path: string): void {
    this.sections.forEach((s, i) => {
      if (this.crcs[i] !== s.crc32) throw new IndexProblem('damaged', `${path} is damaged: section ${s.name} fails its checksum`);
    });
  }
}

/** Reads one kind's segment whole into a SharedArrayBuffer and checks every section's CRC-32. */
async function readSharedSegment(
  dir: string,
  entry: KindEntry,
  room = false,
  piece = READ_PIECE,
): Promise<{ source: ImageSource; buffer: SharedArrayBuffer; entry: KindEntry }> {
  const path = join(dir, entry.file);
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (e) {
    throw new IndexProblem('damaged', `${path} is missing: ${(e as Error).message}`);
  }
  if (size !== entry.bytes) throw new IndexProblem('damaged', `${path} is damaged: ${size} bytes, the manifest says ${entry.bytes}`);
  const grown = room ? roomFor(entry, size) : [];
  const last = grown[grown.length - 1];
  const buffer = new SharedArrayBuffer(last === undefined ? size : last.offset + last.room!);
  for (const s of entry.sections) {
    if (!(s.offset >= 0 && s.bytes >= 0 && s.offset + s.bytes <= size))
      throw new IndexProblem('damaged', `${path} is damaged: section ${s.name} lies outside the file`);
  }
  const sums = new SectionSums(entry.sections);
  const reads: Array<Promise<[number, number]>> = [];
  const fh = await open(path, 'r');
  try {
    // Pieces read ahead (the thread pool's reads, and the kernel's copy into fresh pages,
    // run beside this thread) while this thread checksums the pieces read, in order: on two
    // cores a start reads and checks the files in about half the time of one after the other
    // (docs/benchmarks.md "Note: reading the index files").
    let next = 0;
    const readAhead = () => {
      const at = next;
      const length = Math.min(size - at, piece);
      next += length;
      const read = (async (): Promise<[number, number]> => {
        for (let done = 0; done < length;) {
          const { bytesRead } = await fh.read(new Uint8Array(buffer, at + done, length - done), 0, length - done, at + done);
          if (bytesRead === 0) throw new IndexProblem('damaged', `${path} is damaged: it ends early`);
          done += bytesRead;
        }
        return [at, length];
      })();
      read.catch(() => {}); // awaited below, or settled before the file is closed
      reads.push(read);
    };
    while (next < size && reads.length < READS_AHEAD) readAhead();
    while (reads.length > 0) {
      const [at, length] = await reads.shift()!;
      if (next < size) readAhead();
      sums.add(new Uint8Array(buffer, at, length), at);
    }
  } finally {
    // a read that failed leaves others under way: none may outlive the file handle
    await Promise.allSettled(reads);
    await fh.close();
  }
  sums.check(path);
  if (grown.length === 0) return { source: sharedSource(path, entry, buffer), buffer, entry };
  // The columns moved behind the file's bytes, each with its room (NaN for numbers: none).
  const moved = new Map(grown.map((s) => [s.name, s]));
  for (const s of grown) {
    const from = entry.sections.find((e) => e.name === s.name)!;
    new Uint8Array(buffer, s.offset, s.bytes).set(new Uint8Array(buffer, from.offset, from.bytes));
    if (s.type === 'f64') new Float64Array(buffer, s.offset + s.bytes, (s.room! - s.bytes) / 8).fill(NaN);
  }
  const relocated: KindEntry = { ...entry, sections: entry.sections.map((s) => moved.get(s.name) ?? s) };
  return { source: sharedSource(path, relocated, buffer), buffer, entry: relocated };
}

/**
 * The per-document columns a replica appends to (growable.ts columns restored with
 * ImageSource.typed), each written once per ordinal (a multi-valued facet's value list once per
 * value of a new ordinal, facetColumn.ts): given room to grow behind the file's
 * bytes, so that the replicas of a pool, which append the same values at the same ordinals,
 * keep appending to the one shared copy instead of each copying the column when it first
 * grows (docs/search-engine.md "One copy per node"). Room for an eighth more documents (at
 * least 4,096): what changes between two generations; past it a replica copies the column, as
 * before.
 */
const GROWING =
  /^(idHash|fieldMask|exactA|exactB|number\.\d+|sort\.\d+|facet\.\d+\.(single|start|ids)|(ids|displays|sort\.\d+)\.at|(idRank|sortRank\.\d+)\.rank)$/;

function roomFor(entry: KindEntry, size: number): SectionEntry[] {
  const out: SectionEntry[] = [];
  let at = Math.ceil(size / ALIGN) * ALIGN;
  for (const s of entry.sections) {
    if (!GROWING.test(s.name)) continue;
    const width = s.type === 'f64' ? 8 : s.type === 'u8' ? 1 : s.type === 'u16' ? 2 : 4;
    const length = s.bytes / width;
    const room = Math.ceil(((length + Math.max(4096, Math.ceil(length / 8))) * width) / ALIGN) * ALIGN;
    out.push({ ...s, offset: at, room });
    at += room;
  }
  return out;
}

/** Reads and checks one kind's segment: every section's size and CRC-32. */
async function readSegment(dir: string, entry: KindEntry): Promise<ImageSource> {
  const path = join(dir, entry.file);
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (e) {
    throw new IndexProblem('damaged', `${path} is missing: ${(e as Error).message}`);
  }
  if (size !== entry.bytes) throw new IndexProblem('damaged', `${path} is damaged: ${size} bytes, the manifest says ${entry.bytes}`);
  const fh = await open(path, 'r');
  const sections = new Map<string, { type: SectionType; bytes: Uint8Array<ArrayBuffer> }>();
  try {
    for (const s of entry.sections) {
      if (!(s.offset >= 0 && s.bytes >= 0 && s.offset + s.bytes <= size))
        throw new IndexProblem('damaged', `${path} is damaged: section ${s.name} lies outside the file`);
      const bytes = new Uint8Array(new ArrayBuffer(s.bytes));
      for (let at = 0; at < s.bytes;) {
        const { bytesRead } = await fh.read(bytes, at, Math.min(s.bytes - at, 1 << 30), s.offset + at);
        if (bytesRead === 0) throw new IndexProblem('damaged', `${path} is damaged: section ${s.name} ends early`);
        at += bytesRead;
      }
      if (crc32(bytes) !== s.crc32) throw new IndexProblem('damaged', `${path} is damaged: section ${s.name} fails its checksum`);
      sections.set(s.name, { type: s.type, bytes });
    }
  } finally {
    await fh.close();
  }
  return new ImageSource(entry.values, sections);
}

/**
 * The newest generation in `dir` that is of this format, of the store `store`, and whose
 * files verify; `problems` says why each newer one was not taken (oldest last). Throws
 * IndexProblem('missing') when there is none at all.
 */
export async function readIndexes(
  dir: string,
  store: string | undefined,
  options: { shared?: false } = {},
): Promise<ReadIndexes & { problems: IndexProblem[] }> {
  return await readGeneration(dir, store, options.shared ?? false);
}

/**
 * readIndexes into shared memory: each segment read whole into a SharedArrayBuffer, once per
 * process, for every search thread (SharedIndexes); the sources view it (ImageSource.shared).
 */
export async function readSharedIndexes(
  dir: string,
  store: string | undefined,
  /** Room to grow for the per-document columns, for the replicas of a pool (roomFor). */
  room = false,
  /** Bytes read and checksummed at a time (tests make sections straddle pieces). */
  piece = READ_PIECE,
): Promise<ReadIndexes & SharedIndexes & { problems: IndexProblem[] }> {
  return (await readGeneration(dir, store, true, room, piece)) as ReadIndexes & SharedIndexes & { problems: IndexProblem[] };
}

async function readGeneration(
  dir: string,
  store: string | undefined,
  shared: boolean,
  room = false,
  piece = READ_PIECE,
): Promise<ReadIndexes & Partial<SharedIndexes> & { problems: IndexProblem[] }> {
  const manifests = await manifestsIn(dir);
  if (manifests.length === 0) throw new IndexProblem('missing', `no search index in ${dir}`);
  const problems: IndexProblem[] = [];
  for (const m of manifests.slice(0, 2)) {
    try {
      const manifest = await readManifest(dir, m.file);
      if (manifest.format !== INDEX_FORMAT) {
        throw new IndexProblem(
          'format',
          `the search index in ${dir} is of format ${String(manifest.format)}; this version reads format ${INDEX_FORMAT}`,
        );
      }
      if (store !== undefined && manifest.store !== store) {
        throw new IndexProblem(
          'store',
          `the search index in ${dir} was written for another store (${String(manifest.store)}, this one is ${store})`,
        );
      }
      const sources: Partial<Record<SearchKind, ImageSource>> = {};
      const buffers: Partial<Record<SearchKind, SharedArrayBuffer>> = {};
      const kinds: Partial<Record<SearchKind, KindEntry>> = {};
      for (const kind of ['person', 'item'] as const) {
        const entry = manifest.kinds[kind];
        if (entry === undefined) throw new IndexProblem('damaged', `${join(dir, m.file)} is damaged: no ${kind} index`);
        if (shared) {
          const read = await readSharedSegment(dir, entry, room, piece);
          sources[kind] = read.source;
          buffers[kind] = read.buffer;
          // The sections where they lie in the buffer (moved when given room).
          kinds[kind] = read.entry;
        } else sources[kind] = await readSegment(dir, entry);
      }
      return {
        manifest: { ...manifest, kinds: { ...manifest.kinds, ...kinds } },
        sources: sources as Record<SearchKind, ImageSource>,
        ...(shared ? { buffers: buffers as Record<SearchKind, SharedArrayBuffer> } : {}),
        problems,
      };
    } catch (e) {
      if (!(e instanceof IndexProblem)) throw e;
      problems.push(e);
      // An index of another format or store: the one before is no better.
      if (e.reason !== 'damaged') break;
    }
  }
  throw problems[0]!;
}

/** A generation copied by copyIndexes. */
export interface CopiedIndexes {
  manifest: IndexManifest;
  /** Bytes of segment files copied. */
  bytes: number;
}

/** How often copyIndexes starts again when the writer removed the generation it was opening. */
const COPY_ATTEMPTS = 5;

type FileHandle = Awaited<ReturnType<typeof open>>;

/**
 * Copies the newest generation of `from` into `to` (made if missing; it must hold no index
 * yet), while a server may go on writing `from`: files are never changed once written, and
 * both segments are opened before anything is copied, so a generation the writer prunes
 * meanwhile is still read whole (an open file outlives its name). A segment gone before it was
 * opened means newer generations were written: the copy starts again from the newest. The
 * segments are copied under temporary names, fsynced and renamed, then checked section by
 * section against the manifest's sizes and checksums, and the manifest is written last, as
 * writeIndexes does: a copy killed at any moment leaves no manifest, so nothing a node reads.
 * Nothing is held in memory but a piece of 4 MiB.
 */
export async function copyIndexes(from: string, to: string, store: string): Promise<CopiedIndexes> {
  if ((await manifestsIn(to)).length > 0)
    throw new IndexProblem('store', `${to} already holds a search index: give an empty or new directory`);
  for (let attempt = 1; ; attempt++) {
    const newest = (await manifestsIn(from))[0];
    if (newest === undefined) throw new IndexProblem('missing', `no search index in ${from}`);
    const manifest = await readManifest(from, newest.file);
    if (manifest.format !== INDEX_FORMAT)
      throw new IndexProblem(
        'format',
        `the search index in ${from} is of format ${String(manifest.format)}; this version reads format ${INDEX_FORMAT}`,
      );
    if (manifest.store !== store)
      throw new IndexProblem(
        'store',
        `the search index in ${from} was written for another store (${String(manifest.store)}, this one is ${store})`,
      );
    const handles: Array<{ entry: KindEntry; fh: FileHandle }> = [];
    try {
      try {
        for (const kind of ['person', 'item'] as const) {
          const entry = manifest.kinds[kind];
          if (entry === undefined) throw new IndexProblem('damaged', `${join(from, newest.file)} is damaged: no ${kind} index`);
          handles.push({ entry, fh: await open(join(from, entry.file), 'r') });
        }
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT' && attempt < COPY_ATTEMPTS) continue;
        throw e;
      }
      await mkdir(to, { recursive: true });
      let bytes = 0;
      try {
        for (const { entry, fh } of handles) bytes += await copySegment(fh, join(from, entry.file), entry, to);
      } catch (e) {
        for (const { entry } of handles) await rm(join(to, entry.file), { force: true });
        throw e;
      }
      await fsyncDir(to);
      const name = `manifest-${String(manifest.generation).padStart(6, '0')}.json`;
      const tmp = join(to, `${name}.${randomBytes(4).toString('hex')}.tmp`);
      const out = await open(tmp, 'w');
      try {
        await out.writeFile(JSON.stringify(manifest));
        await out.sync();
      } finally {
        await out.close();
      }
      await rename(tmp, join(to, name));
      await fsyncDir(to);
      return { manifest, bytes };
    } finally {
      for (const { fh } of handles) await fh.close();
    }
  }
}

/**
 * One segment from an open file to `<to>/<its name>`: copied under a temporary name, each
 * section's CRC-32 computed on the bytes written and checked against the manifest, synced,
 * renamed; its size.
 */
async function copySegment(from: FileHandle, path: string, entry: KindEntry, to: string): Promise<number> {
  const tmp = join(to, `${entry.file}.tmp`);
  const out = await open(tmp, 'w');
  const piece = Buffer.allocUnsafe(4 * 2 ** 20);
  const sums = new SectionSums(entry.sections);
  let at = 0;
  try {
    for (;;) {
      const { bytesRead } = await from.read(piece, 0, piece.length, at);
      if (bytesRead === 0) break;
      sums.add(piece.subarray(0, bytesRead), at);
      await out.write(piece, 0, bytesRead, at);
      at += bytesRead;
    }
    if (at !== entry.bytes) throw new IndexProblem('damaged', `${path} is damaged: ${at} bytes, the manifest says ${entry.bytes}`);
    sums.check(path);
    await out.sync();
  } catch (e) {
    await out.close();
    await rm(tmp, { force: true });
    throw e;
  }
  await out.close();
  await rename(tmp, join(to, entry.file));
  return at;
}
