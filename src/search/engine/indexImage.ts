/**
 * An index's state as named sections of bytes and a few plain values: what is written to
 * disk (src/search/indexFiles.ts) and read back, so that a start needs no rebuild
 * (docs/search-engine.md "Persistence").
 *
 * Taking an image is cheap and synchronous (`SearchIndex.image`): what changes after it
 * (the live bits, ranks, counters, the per-list tails of the pools) is copied at once, and
 * what no later change touches below its length (the pools' bytes, per-ordinal columns
 * written once, the dictionaries' strings, which are append-only) is read by the writer
 * later, piece by piece, between searches and index updates. Sections are typed arrays
 * laid out as they are in memory, so that a reader can view them in place (a whole file
 * read into one buffer, or mapped) rather than parse them.
 */

export type Typed = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

export type SectionType = 'u8' | 'u16' | 'u32' | 'i32' | 'f64';

const CTORS = {
  u8: Uint8Array,
  u16: Uint16Array,
  u32: Uint32Array,
  i32: Int32Array,
  f64: Float64Array,
} as const;

export function typeOf(a: Typed): SectionType {
  if (a instanceof Uint8Array) return 'u8';
  if (a instanceof Uint16Array) return 'u16';
  if (a instanceof Uint32Array) return 'u32';
  if (a instanceof Int32Array) return 'i32';
  return 'f64';
}

/** A section of an image: its bytes, now or (for what no later change touches) when the writer gets to it. */
export interface ImageSection {
  name: string;
  type: SectionType;
  /** Pieces of bytes in order; each piece is produced when the writer asks for it (it copies it before any await). */
  pieces(): Iterable<Uint8Array>;
}

export interface IndexImageData {
  /** Plain values (counts, flags, small tables): JSON. */
  values: Record<string, unknown>;
  sections: ImageSection[];
}

function bytesOf(a: Typed, length: number): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, length * a.BYTES_PER_ELEMENT);
}

/**
 * The most bytes of pool chunks in one section (1 GiB): a reader views a section as one typed
 * array, and a typed array spans at most 2^32 elements (Node 20), which the item postings pass
 * at about 30 M items (docs/benchmarks.md "Scale"). A pool of more is written as several
 * sections, `<name>`, `<name>#1`, `<name>#2`, … of whole chunks.
 */
export const SECTION_BYTES = 2 ** 30;

/** The name of the k-th section of a pool's chunks. */
const groupName = (name: string, k: number) => (k === 0 ? name : `${name}#${k}`);

/** Collects an image (SearchIndex.image and the image methods of its parts). */
export class ImageSink {
  readonly values: Record<string, unknown> = {};
  readonly sections: ImageSection[] = [];

  /** `sectionBytes`: the most bytes of chunks per section (SECTION_BYTES; tests give less). */
  constructor(private readonly sectionBytes = SECTION_BYTES) {}

  value(name: string, v: unknown): void {
    this.values[name] = v;
  }

  /** The first `length` elements of `a`, copied now: they may change later. */
  copy(name: string, a: Typed, length = a.length): void {
    const copied = a.slice(0, length);
    this.sections.push({ name, type: typeOf(a), pieces: () => [bytesOf(copied, length)] });
  }

  /** The first `length` elements of `a`, which no later change touches: read by the writer. */
  view(name: string, a: Typed, length = a.length): void {
    this.sections.push({ name, type: typeOf(a), pieces: () => [bytesOf(a, length)] });
  }

  /** Made by the writer, from what no later change touches (e.g. append-only arrays up to a length). */
  later(name: string, type: SectionType, make: () => Typed): void {
    this.sections.push({
      name,
      type,
      pieces: () => {
        const a = make();
        return [bytesOf(a, a.length)];
      },
    });
  }

  /**
   * The chunks of a byte pool: every chunk whole, the last one up to `lastBytes`; in sections of
   * whole chunks of at most `sectionBytes` each (a chunk larger than that alone in its own).
   */
  chunks(name: string, chunks: readonly Uint8Array[], lastBytes: number): void {
    const list = chunks.slice();
    const piece = (i: number) => (i === list.length - 1 ? list[i]!.subarray(0, lastBytes) : list[i]!);
    const groups: number[][] = [[]];
    let size = 0;
    for (let i = 0; i < list.length; i++) {
      const bytes = piece(i).length;
      if (groups.at(-1)!.length > 0 && size + bytes > this.sectionBytes) {
        groups.push([]);
        size = 0;
      }
      groups.at(-1)!.push(i);
      size += bytes;
    }
    // How many, so that a reader tells a section missing from a pool that ends at a chunk.
    if (groups.length > 1) this.value(`${name}.sections`, groups.length);
    groups.forEach((group, k) =>
      this.sections.push({
        name: groupName(name, k),
        type: 'u8',
        *pieces() {
          for (const i of group) yield piece(i);
        },
      }),
    );
  }
}

/**
 * An image read back: the values and each section's bytes (aligned for typed views).
 * `shared`: the bytes lie in shared memory (a SharedArrayBuffer every search thread of the
 * process views; docs/search-engine.md "One copy per process"), so nothing may write them:
 * sections the index changes in place are taken with `lent` (copied at the first write), the
 * others are viewed in place and copied by the index itself when it grows them.
 */
export class ImageSource {
  constructor(
    readonly values: Record<string, unknown>,
    /** `room`: where a per-document column may grow in place (indexFiles.ts roomFor), used by replicas only. */
    private readonly sections: ReadonlyMap<string, { type: SectionType; bytes: Uint8Array; room?: Uint8Array }>,
    readonly shared = false,
    /**
     * The shared bytes are viewed by replicas that apply the same changes in the same order
     * (docs/search-engine.md "One copy per node"): the pools' chunks may be written in place
     * (each replica writes the same bytes at the same place, beyond what any other has read).
     */
    readonly replicated = false,
  ) {}

  value<T>(name: string): T {
    if (!(name in this.values)) throw new ImageError(`value ${name} missing`);
    return this.values[name] as T;
  }

  has(name: string): boolean {
    return this.sections.has(name);
  }

  sectionType(name: string): SectionType {
    const s = this.sections.get(name);
    if (s === undefined) throw new ImageError(`section ${name} missing`);
    return s.type;
  }

  private section(name: string, type: SectionType): Uint8Array {
    const s = this.sections.get(name);
    if (s === undefined) throw new ImageError(`section ${name} missing`);
    if (s.type !== type) throw new ImageError(`section ${name} is ${s.type}, expected ${type}`);
    return s.bytes;
  }

  /**
   * A typed view of a section, in place: for what the index only appends to (a longer column
   * is a new array: growable.ts), never writes below its length. Shared when the source is.
   */
  typed<T extends SectionType>(name: string, type: T): InstanceType<(typeof CTORS)[T]> {
    const room = this.replicated ? this.sections.get(name)?.room : undefined;
    // A replica's column views its room too: appending fills it in place (the index never
    // reads an element beyond its ordinals, and every replica writes the same values there).
    const b = room !== undefined && this.sections.get(name)!.type === type ? room : this.section(name, type);
    const ctor = CTORS[type];
    if (b.byteOffset % ctor.BYTES_PER_ELEMENT !== 0 || b.byteLength % ctor.BYTES_PER_ELEMENT !== 0)
      throw new ImageError(`section ${name} is misaligned`);
    // Typed as over an ArrayBuffer: the index only reads, writes and copies its columns, which a
    // view over a SharedArrayBuffer does alike (it never transfers or resizes one).
    return new ctor(b.buffer as ArrayBuffer, b.byteOffset, b.byteLength / ctor.BYTES_PER_ELEMENT) as InstanceType<(typeof CTORS)[T]>;
  }

  /** How many elements a section holds as written (without the room a replica's view has behind them). */
  length(name: string, type: SectionType): number {
    return this.section(name, type).byteLength / CTORS[type].BYTES_PER_ELEMENT;
  }

  /**
   * A section the index writes in place (live bits, counters, ranks, the id table, the pools'
   * per-list tails: what ImageSink.copy took), lent: the view, with `lent` true when it is
   * shared, and then the index copies it at its first write to it (Growable.restore,
   * IdTable.restore), never before. A thread that has not changed a column since the
   * generation holds no copy of it (docs/search-engine.md "One copy per node").
   */
  lent<T extends SectionType>(name: string, type: T): { array: InstanceType<(typeof CTORS)[T]>; lent: boolean } {
    return { array: this.typed(name, type), lent: this.shared };
  }

  /**
   * A section of pool chunks of the given sizes, all whole but the last, which is copied
   * into a whole chunk of its size (the pool appends to it).
   */
  chunks(name: string, sizes: readonly number[], alloc: (size: number) => Uint8Array = (n) => new Uint8Array(n)): Uint8Array[] {
    // The pool's sections in order (ImageSink.chunks), each of whole chunks.
    const sections = (this.values[`${name}.sections`] as number | undefined) ?? 1;
    const parts = Array.from({ length: sections }, (_, k) => this.section(groupName(name, k), 'u8'));
    if (this.sections.has(groupName(name, sections)))
      throw new ImageError(`section ${groupName(name, sections)}: one more than the image names`);
    const total = parts.reduce((n, b) => n + b.length, 0);
    const count = sizes.length;
    if (count === 0) {
      if (total !== 0) throw new ImageError(`section ${name}: bytes without chunks`);
      return [];
    }
    const wrong = () => new ImageError(`section ${name}: ${total} bytes in ${parts.length} sections for chunks of ${sizes.join(', ')}`);
    const out: Uint8Array[] = [];
    let p = 0;
    let at = 0;
    const next = () => {
      if (at === parts[p]!.length && p + 1 < parts.length) {
        p++;
        at = 0;
      }
    };
    for (let i = 0; i < count - 1; i++) {
      next();
      if (at + sizes[i]! > parts[p]!.length) throw wrong();
      out.push(parts[p]!.subarray(at, at + sizes[i]!));
      at += sizes[i]!;
    }
    next();
    const last = parts[p]!.length - at;
    if (p !== parts.length - 1 || last > sizes[count - 1]!) throw wrong();
    const whole = alloc(sizes[count - 1]!);
    whole.set(parts[p]!.subarray(at));
    out.push(whole);
    return out;
  }
}

/** An image that does not fit together (a section or value missing or of the wrong shape): the files are not of this version, or damaged. */
export class ImageError extends Error {
  override readonly name = 'ImageError';
}
