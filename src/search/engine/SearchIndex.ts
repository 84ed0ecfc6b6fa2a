/**
 * The one search engine (issue #14 point 5): an in-memory inverted index over one kind of
 * document, driven by a schema (schema.ts), fed by upserts and deletes (feed.ts), searched
 * synchronously with a cooperative deadline (search.ts). It knows no SQL, no HTTP and no
 * store: a backend hands it documents, so every backend gives byte-identical answers.
 *
 * Layout (memory is the point at a million documents, issue #14 point 8):
 *   - every document gets an ordinal, never reused: an upsert of a known id deletes the old
 *     ordinal (a bit in `live`) and appends a new one, so postings stay in ordinal order
 *     and are append-only. Dead ordinals cost their postings until a compaction (not yet
 *     written: rebuild the index from the store to reclaim them);
 *   - text postings per term in one ListPool (listPool.ts), varint-encoded:
 *       docDelta, nFields, then per field (nPositions * 32 + field), nPositions position deltas
 *     positions count tokens within a field; values of a multi-valued field are one position
 *     apart, so a phrase never spans two values;
 *   - facets: value ids per facet (dictionary.ts), per value a posting list of ordinals and a
 *     live-document count, and per document its value ids (CSR over ordinals);
 *   - numbers and numeric sort keys in Float64Arrays (NaN = none), string sort keys in an
 *     array of strings, and per document a mask of its non-empty text fields.
 */
import { fold, tokens } from '../fold.js';
import { Dictionary } from './dictionary.js';
import { Growable, U32List } from './growable.js';
import { ListPool } from './listPool.js';
import { hashString } from './order.js';
import { validateSchema, type Schema } from './schema.js';
import { runSearch } from './search.js';
import type { SearchDocument, SearchRequest, SearchResult } from './types.js';
import { globMatcher, type WildcardMatcher } from './wildcard.js';

export interface SearchIndexOptions {
  /** Builds a term predicate from a wildcard pattern (default: wildcard.ts globMatcher). */
  wildcard?: WildcardMatcher;
  /** The clock deadlines are on (default Date.now); tests pass their own. */
  now?: () => number;
}

export class FacetColumn {
  readonly values = new Dictionary();
  readonly postings = new ListPool();
  /** Live documents per value id. */
  readonly live = new Growable(Uint32Array);
  /** Values of ordinal d are ids[start[d] .. start[d + 1]). */
  readonly start = new Growable(Uint32Array);
  readonly ids = new U32List();
}

/** Order-insensitive key of a name (as src/search/personFields.ts nameKey). */
export function nameKey(text: string): string {
  return tokens(text).sort().join(' ');
}

/** A second, independent 32-bit hash, so that an exact match is a 64-bit comparison. */
export function hashString2(s: string): number {
  let h = 0x9747b28c;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x5bd1e995) ^ (h >>> 15);
  return h >>> 0;
}

export class SearchIndex {
  readonly textField: ReadonlyMap<string, number>;
  readonly facetField: ReadonlyMap<string, number>;
  readonly numberField: ReadonlyMap<string, number>;
  readonly sortKey: ReadonlyMap<string, number>;
  readonly weights: Float64Array;
  readonly wildcard: WildcardMatcher;
  readonly now: () => number;

  /** Ordinal -> id (undefined once deleted). */
  readonly ids: Array<string | undefined> = [];
  readonly byId = new Map<string, number>();
  readonly idHash = new Growable(Uint32Array);
  readonly live = new Growable(Uint8Array);
  readonly fieldMask = new Growable(Uint32Array);
  /** Hashes of nameKey(first value of the first text field), for the exact-match tier. */
  readonly exactA = new Growable(Uint32Array);
  readonly exactB = new Growable(Uint32Array);
  readonly terms = new Dictionary();
  readonly text = new ListPool();
  readonly facets: FacetColumn[];
  readonly numbers: Array<Growable<Float64Array>>;
  readonly sortNumbers: Array<Growable<Float64Array> | undefined>;
  readonly sortStrings: Array<Array<string | undefined> | undefined>;
  private liveCount = 0;
  /** Moves on every change; caches keyed by it (the live set) stay valid until then. */
  version = 0;
  private allCache: { version: number; docs: Uint32Array } | undefined;

  constructor(
    readonly schema: Schema,
    options: SearchIndexOptions = {},
  ) {
    validateSchema(schema);
    this.textField = new Map(schema.text.map((f, i) => [f.name, i]));
    this.facetField = new Map(schema.facets.map((f, i) => [f, i]));
    this.numberField = new Map(schema.numbers.map((f, i) => [f.name, i]));
    this.sortKey = new Map(schema.sortKeys.map((k, i) => [k.name, i]));
    this.weights = Float64Array.from(schema.text.map((f) => f.weight));
    this.facets = schema.facets.map(() => new FacetColumn());
    this.numbers = schema.numbers.map(() => new Growable(Float64Array, 1024, NaN));
    this.sortNumbers = schema.sortKeys.map((k) => (k.type === 'number' ? new Growable(Float64Array, 1024, NaN) : undefined));
    this.sortStrings = schema.sortKeys.map((k) => (k.type === 'string' ? [] : undefined));
    this.wildcard = options.wildcard ?? globMatcher;
    this.now = options.now ?? Date.now;
  }

  /** Live documents. */
  get size(): number {
    return this.liveCount;
  }

  /** Ordinals handed out so far (live or not). */
  get ordinals(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** Adds a document, or replaces the one with the same id. */
  upsert(doc: SearchDocument): void {
    if (typeof doc.id !== 'string' || doc.id === '') throw new Error(`${this.schema.kind} document without an id`);
    this.delete(doc.id);
    const ord = this.ids.length;
    this.ids.push(doc.id);
    this.byId.set(doc.id, ord);
    this.idHash.set(ord, hashString(doc.id));
    this.live.set(ord, 1);
    this.liveCount++;
    this.version++;
    this.indexText(ord, doc);
    this.indexFacets(ord, doc);
    this.schema.numbers.forEach((f, i) => {
      const v = doc.numbers[f.name];
      this.numbers[i]!.set(ord, typeof v === 'number' && Number.isFinite(v) ? v : NaN);
    });
    this.schema.sortKeys.forEach((k, i) => {
      const v = doc.sort[k.name];
      if (k.type === 'number') this.sortNumbers[i]!.set(ord, typeof v === 'number' && Number.isFinite(v) ? v : NaN);
      else this.sortStrings[i]![ord] = typeof v === 'string' ? v : undefined;
    });
  }

  /** Removes a document; false when the id is unknown. */
  delete(id: string): boolean {
    const ord = this.byId.get(id);
    if (ord === undefined) return false;
    this.byId.delete(id);
    this.live.array[ord] = 0;
    this.liveCount--;
    this.version++;
    this.ids[ord] = undefined;
    for (const s of this.sortStrings) if (s) s[ord] = undefined;
    for (const f of this.facets) {
      const ids = f.ids.array;
      for (let j = f.start.array[ord]!; j < f.start.array[ord + 1]!; j++) f.live.array[ids[j]!]!--;
    }
    return true;
  }

  private indexText(ord: number, doc: SearchDocument): void {
    // term -> [field, position, field, position, ...] in field order, positions ascending
    const occurrences = new Map<string, number[]>();
    let mask = 0;
    this.schema.text.forEach((f, fi) => {
      const values = doc.text[f.name] ?? [];
      let pos = 0;
      for (const value of values) {
        const toks = tokens(value);
        if (toks.length > 0) mask |= 1 << fi;
        for (const t of toks) {
          let list = occurrences.get(t);
          if (!list) occurrences.set(t, (list = []));
          list.push(fi, pos++);
        }
        pos++; // the gap between two values
      }
    });
    this.fieldMask.set(ord, mask >>> 0);
    const first = doc.text[this.schema.text[0]!.name]?.[0];
    const key = first === undefined ? '' : nameKey(first);
    this.exactA.set(ord, key === '' ? 0 : hashString(key));
    this.exactB.set(ord, key === '' ? 0 : hashString2(key));
    for (const [term, occ] of occurrences) {
      const id = this.terms.intern(term);
      if (id === this.text.count) this.text.create();
      let fields = 0;
      for (let k = 0; k < occ.length; k += 2) if (k === 0 || occ[k] !== occ[k - 2]) fields++;
      this.text.pushDelta(id, ord);
      this.text.push(id, fields);
      for (let k = 0; k < occ.length; ) {
        const field = occ[k]!;
        let end = k;
        while (end < occ.length && occ[end] === field) end += 2;
        this.text.push(id, ((end - k) / 2) * 32 + field);
        let prev = 0;
        for (let m = k; m < end; m += 2) {
          this.text.push(id, occ[m + 1]! - prev);
          prev = occ[m + 1]!;
        }
        k = end;
      }
    }
  }

  private indexFacets(ord: number, doc: SearchDocument): void {
    this.schema.facets.forEach((name, fi) => {
      const col = this.facets[fi]!;
      col.start.set(ord, col.ids.length);
      for (const value of new Set(doc.facets[name] ?? [])) {
        if (typeof value !== 'string') continue;
        const v = col.values.intern(value);
        if (v === col.postings.count) col.postings.create();
        col.postings.pushDelta(v, ord);
        col.live.set(v, (col.live.array[v] ?? 0) + 1);
        col.ids.push(v);
      }
      col.start.set(ord + 1, col.ids.length);
    });
  }

  /** Live ordinals, ascending (cached until the next change). */
  allLive(): Uint32Array {
    if (this.allCache?.version === this.version) return this.allCache.docs;
    const out = new Uint32Array(this.liveCount);
    const live = this.live.array;
    let n = 0;
    for (let d = 0; d < this.ids.length; d++) if (live[d] === 1) out[n++] = d;
    this.allCache = { version: this.version, docs: out };
    return out;
  }

  /**
   * Live documents with a term in any field (exact, by reading its postings): the document
   * frequency the spellchecker (issue #18) ranks corrections by. 0 for an unknown term.
   */
  documentFrequency(term: string): number {
    const id = this.terms.get(fold(term));
    if (id === undefined) return 0;
    const r = this.text.reader(id);
    const live = this.live.array;
    let df = 0;
    while (!r.done) {
      const doc = r.readDelta();
      const nf = r.read();
      for (let f = 0; f < nf; f++) {
        const np = Math.floor(r.read() / 32);
        for (let p = 0; p < np; p++) r.read();
      }
      if (live[doc] === 1) df++;
    }
    return df;
  }

  /** The indexed terms starting with `prefix` (already folded), in code point order: the vocabulary for suggestions and spelling. */
  termsWithPrefix(prefix: string): string[] {
    const ids = this.terms.withPrefix(prefix, () => true, Infinity, () => new Error('unreachable'));
    return ids.map((id) => this.terms.string(id));
  }

  /** Bytes in typed arrays and pools (JS strings and maps not counted). */
  get poolBytes(): number {
    let n = this.text.bytes;
    for (const f of this.facets) n += f.postings.bytes + f.ids.array.byteLength + f.start.array.byteLength;
    return n;
  }

  search(request: SearchRequest, deadline: number): SearchResult {
    return runSearch(this, request, deadline);
  }
}
