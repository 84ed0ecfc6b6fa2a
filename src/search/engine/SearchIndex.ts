/**
 * The one search engine for items and persons (docs/search-engine.md): an in-memory inverted index over one kind of
 * document, driven by a schema (schema.ts), fed by upserts and deletes (feed.ts), searched
 * synchronously with a cooperative deadline (search.ts). It knows no SQL, no HTTP and no
 * store: a backend hands it documents, so every backend gives byte-identical answers.
 *
 * Layout (memory is the point at a million documents, docs/search-engine.md "Memory layout"):
 *   - every document gets an ordinal, never reused: an upsert of a known id deletes the old
 *     ordinal (a bit in `live`) and appends a new one, so postings stay in ordinal order
 *     and are append-only. Dead ordinals cost their postings until a compaction (not yet
 *     written: rebuild the index from the store to reclaim them);
 *   - text postings per term in one ListPool (listPool.ts), varint-encoded:
 *       docDelta, nFields, then per field (nPositions * 32 + field), nPositions position deltas
 *     positions count tokens within a field; values of a multi-valued field are VALUE_GAP
 *     positions apart, so a phrase, sloppy or not, never spans two values;
 *   - facets (facetColumn.ts): value ids per facet, per value a posting list of ordinals and
 *     a live-document count, and per document its value id (a dense column while no
 *     document has two) or its value ids (CSR over ordinals);
 *   - numbers and numeric sort keys in Float64Arrays (NaN = none); ids, string sort keys
 *     and suggestion displays as UTF-8 in byte pools (stringColumn.ts), no JS string per
 *     document; per document a mask of its non-empty text fields.
 */
import { fold, tokens } from './fold.js';
import { Analyzer, IdBuffer } from './analyzer.js';
import { AnalysedForms } from './analysedForms.js';
import { elisions, hasApostrophe } from './analysis.js';
import { Occurrences } from './occurrences.js';
import { Dictionary } from './dictionary.js';
import { FacetColumn } from './facetColumn.js';
import { Growable } from './growable.js';
import { ListPool } from './listPool.js';
import { FacetBits } from './facetBits.js';
import { FilterCounts } from './filterCounts.js';
import { KeptWords } from './keptWords.js';
import { PostingsCache } from './postingsCache.js';
import { PositionsCache } from './positionsCache.js';
import { liveDf, Postings, TF_CAP } from './postings.js';
import { Deadline } from './errors.js';
import { RankedStrings, type SharedRanks } from './ranks.js';
import { RankLists } from './rankLists.js';
import { hashString } from './order.js';
import { IdTable } from './idTable.js';
import { ImageError, ImageSink, type ImageSource, type IndexImageData } from './indexImage.js';
import { StringColumn } from './stringColumn.js';
import { validateSchema, type Schema } from './schema.js';
import { runSearch, runSearchPart } from './search.js';
import type { SearchPart } from './shards.js';
import { ScratchPool } from './scratchPool.js';
import { Spellings } from './spellings.js';
import type { ExpansionLimits } from './evaluate.js';
import { Suggester } from './suggest.js';
import { ValueNames } from './valueNames.js';
import type { SearchDocument, SearchRequest, SearchResult } from './types.js';
import { globMatcher, type WildcardMatcher } from './wildcard.js';

/** Positions between the last word of a value and the first of the next: MAX_SLOP + 1. */
export const VALUE_GAP = 101;

export interface SearchIndexOptions {
  /** Builds a term predicate from a wildcard pattern (default: wildcard.ts globMatcher). */
  wildcard?: WildcardMatcher;
  /** The clock deadlines are on (default Date.now); tests pass their own. */
  now?: () => number;
  /**
   * Decoded postings kept between searches (postingsCache.ts): at most `bytes` (default
   * 64 MiB, or 12 bytes per ordinal when that is more, so that the list of a word in every
   * document fits: 8 bytes a posting and room to grow) of lists with at least `minPostings`
   * postings (default 2048).
   */
  postingsCache?: { bytes?: number; minPostings?: number };
  /**
   * Decoded positions kept between searches for phrases (positionsCache.ts): at most
   * `bytes` (default 96 MiB) of lists of at least `minDocs` documents (default 2048).
   */
  positionsCache?: { bytes?: number; minDocs?: number };
  /** The service's bounds on wildcards for every search that gives none (evaluate.ts ExpansionLimits). */
  limits?: ExpansionLimits;
  /** Parts a search orders and counts facets in within one thread, merged exactly (shards.ts; default 1). */
  shards?: number;
  /** Per-search arrays kept for the next search (scratchPool.ts): at most `bytes` (default 32 MiB) of arrays of at least `minLength` (default 16,384). */
  scratch?: { bytes?: number; minLength?: number };
  /**
   * Bitsets of long facet values kept between searches (facetBits.ts): at most `bytes`
   * (default 8 MiB) of sets of values with at least `minPostings` live documents (default
   * 4,096) and one ordinal in 64; a filter of fewer than `minHits` hits (default 4,096)
   * reads their values instead.
   */
  facetBits?: { bytes?: number; minPostings?: number; minHits?: number };
  /**
   * What `*:*` under one facet filter finds, kept up to date by every change (filterCounts.ts):
   * at most `bytes` (default 4 MiB) of counts of at most `entries` filters (default 32).
   */
  filterCounts?: { bytes?: number; entries?: number };
  /**
   * What a relevance search for one common word finds, alone or under one facet filter,
   * kept up to date by every change (keptWords.ts): at most `bytes` of the words' lists and
   * counts (default 128 MiB, or 16 bytes per ordinal when that is more) of at most
   * `entries` words and filters (default 16), words in at least `minDocs` documents (default
   * 32,768).
   */
  keptWords?: { bytes?: number; entries?: number; minDocs?: number };
  /**
   * The languages a document of a schema with `analysis` is analysed in when its language
   * facet names none that analysis.ts knows (config `search.languages`); default German
   * and English. An index written with others is not read back.
   */
  languages?: readonly string[];
}

const NO_LANGUAGES: readonly number[] = [];

/** The default of SearchIndexOptions.languages. */
export const DEFAULT_LANGUAGES: readonly string[] = ['de', 'en'];

/** Order-insensitive key of a name (as src/search/schemas/personFields.ts nameKey). */
export function nameKey(text: string): string {
  return tokens(text).sort().join(' ');
}

/**
 * What of a schema an index's layout depends on, as text: an index written under another
 * schema (a field added, a weight changed) is not read back (docs/search-engine.md
 * "Persistence"). Functions (parsers, normalisers) are not part of it: a change there needs
 * the format version (src/search/indexFiles.ts) moved.
 */
export function schemaFingerprint(schema: Schema): string {
  return JSON.stringify([
    schema.kind,
    schema.idField,
    schema.text,
    schema.facets,
    schema.numbers.map((f) => f.name),
    schema.sortKeys,
    schema.relevanceTiebreak,
    schema.constants ?? {},
    schema.analysis ?? null,
  ]);
}

/** A second, independent 32-bit hash, so that an exact match is a 64-bit comparison. */
export function hashString2(s: string): number {
  let h = 0x9747b28c;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x5bd1e995) ^ (h >>> 15);
  return h >>> 0;
}

/** A refresh of one sort key's ranks (-1: the ids') in shared memory (ranks.ts SharedRanks). */
export interface RanksOfKey {
  key: number;
  ranks: SharedRanks;
}

export class SearchIndex {
  readonly textField: ReadonlyMap<string, number>;
  readonly facetField: ReadonlyMap<string, number>;
  readonly numberField: ReadonlyMap<string, number>;
  readonly sortKey: ReadonlyMap<string, number>;
  readonly weights: Float64Array;
  /**
   * Every weight a posting can sum to (Σ weight × min(tf, 3), or the best weight) is a whole
   * number below 2^24, so exact in a Float32: the postings cache keeps its weights so.
   */
  readonly weightsFit32: boolean;
  readonly wildcard: WildcardMatcher;
  readonly now: () => number;
  readonly postingsCache: PostingsCache;
  readonly positionsCache: PositionsCache;
  /** Large per-search arrays kept for the next search (scratchPool.ts). */
  readonly scratchPool: ScratchPool;
  /** Bitsets of long facet values (facetBits.ts). */
  readonly facetBits: FacetBits;
  /** Totals and facet counts of `*:*` under one facet filter, kept up to date (filterCounts.ts). */
  readonly filterCounts: FilterCounts;
  /** Totals, facet counts and exact-title hits of common words, kept up to date (keptWords.ts). */
  readonly keptWords: KeptWords;
  readonly limits: ExpansionLimits | undefined;
  /** SearchIndexOptions.shards. */
  readonly shards: number;

  /** Ordinal -> id (kept after a delete: `live` says whether the document is there). */
  readonly ids = new StringColumn();
  readonly idHash = new Growable(Uint32Array);
  readonly live = new Growable(Uint8Array);
  /** Id -> live ordinal. */
  readonly byId = new IdTable(this.ids, this.idHash, this.live);
  private nextOrdinal = 0;
  readonly fieldMask = new Growable(Uint32Array);
  /** Hashes of nameKey(first value of the first text field), for the exact-match tier. */
  readonly exactA = new Growable(Uint32Array);
  readonly exactB = new Growable(Uint32Array);
  readonly terms = new Dictionary();
  /**
   * Per term id, the documents ever indexed with it, live or not: a cheap upper bound of its
   * document frequency, so the spellchecker (spellcheck.ts) reads postings only of the
   * candidates that can win.
   */
  readonly termDocs = new Growable(Uint32Array);
  readonly text = new ListPool();
  readonly facets: FacetColumn[];
  readonly numbers: Array<Growable<Float64Array>>;
  readonly sortNumbers: Array<Growable<Float64Array> | undefined>;
  readonly sortStrings: Array<StringColumn | undefined>;
  /** Ranks of the string sort keys and of the ids (ranks.ts). */
  readonly sortRanks: Array<RankedStrings | undefined>;
  readonly idRanks = new RankedStrings(this.ids);
  /**
   * Ordinal -> the first value of the first text field as written: what suggest.ts shows
   * for a folded sort key. One string per document, the same order of memory as the sort
   * key itself.
   */
  readonly displays = new StringColumn();
  private suggester: Suggester | undefined;
  /** Per string sort key (-1: the id), its ordinals grouped by rank, made when first asked for (rankLists.ts). */
  private readonly lists = new Map<number, RankLists>();
  private liveCount = 0;
  /** How documents spell terms otherwise than the folded term (spellings.ts), for corrections. */
  readonly spellings = new Spellings();
  /** Names of facet values, kept until the next change (valueNames.ts). */
  private readonly valueNames = new ValueNames(this);
  private readonly analyzer = new Analyzer(this.terms, () => this.text.create(), {
    intern: (spelling) => this.spellings.intern(spelling),
    spelt: (id, sid) => this.spellings.add(this.nextOrdinal - 1, id, sid),
  });
  private readonly tok = new IdBuffer();
  /** The occurrences of a document's folded terms and of its analysed forms. */
  private readonly occurrences = new Occurrences();
  private readonly formOccurrences = new Occurrences();
  /** The analysed forms (analysedForms.ts); undefined for a schema without analysis. */
  readonly analysed: AnalysedForms | undefined;
  /** Bit per text field analysed (schema.analysis). */
  readonly analysedMask: number;
  /** The default languages as given (SearchIndexOptions.languages), for the image. */
  private readonly languages: readonly string[];
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
    this.languages = [...(options.languages ?? DEFAULT_LANGUAGES)];
    this.analysed = schema.analysis === undefined ? undefined : new AnalysedForms(this.terms, this.languages);
    let am = 0;
    schema.text.forEach((f, i) => {
      if (schema.analysis?.fields.includes(f.name)) am |= 1 << i;
    });
    this.analysedMask = am >>> 0;
    this.weightsFit32 = this.weights.every((w) => Number.isInteger(w)) && TF_CAP * this.weights.reduce((a, b) => a + b, 0) < 2 ** 24;
    this.facets = schema.facets.map(() => new FacetColumn());
    this.filterCounts = new FilterCounts(this.facets, options.filterCounts?.bytes ?? 4 * 2 ** 20, options.filterCounts?.entries ?? 32);
    this.numbers = schema.numbers.map(() => new Growable(Float64Array, 1024, NaN));
    this.sortNumbers = schema.sortKeys.map((k) => (k.type === 'number' ? new Growable(Float64Array, 1024, NaN) : undefined));
    this.sortStrings = schema.sortKeys.map((k) => (k.type === 'string' ? new StringColumn() : undefined));
    this.sortRanks = this.sortStrings.map((strings) => (strings ? new RankedStrings(strings) : undefined));
    this.wildcard = options.wildcard ?? globMatcher;
    this.now = options.now ?? Date.now;
    this.limits = options.limits;
    this.shards = options.shards ?? 1;
    this.scratchPool = new ScratchPool(options.scratch?.bytes ?? 32 * 2 ** 20, options.scratch?.minLength);
    const cacheBytes = options.postingsCache?.bytes;
    this.postingsCache = new PostingsCache(
      cacheBytes === undefined ? () => Math.max(64 * 2 ** 20, 12 * this.nextOrdinal) : () => cacheBytes,
      options.postingsCache?.minPostings ?? 2048,
    );
    const keptBytes = options.keptWords?.bytes;
    this.keptWords = new KeptWords(
      this,
      keptBytes === undefined ? () => Math.max(128 * 2 ** 20, 16 * this.nextOrdinal) : () => keptBytes,
      options.keptWords?.entries ?? 16,
      options.keptWords?.minDocs ?? 32_768,
    );
    this.positionsCache = new PositionsCache(options.positionsCache?.bytes ?? 96 * 2 ** 20, options.positionsCache?.minDocs ?? 2048);
    this.facetBits = new FacetBits(
      options.facetBits?.bytes ?? 8 * 2 ** 20,
      options.facetBits?.minPostings ?? 4096,
      options.facetBits?.minHits ?? 4096,
    );
  }

  /**
   * The index as of now, as an image to write (indexImage.ts, docs/search-engine.md
   * "Persistence"): synchronous and cheap (what later changes touch is copied, the rest is
   * read by the writer as it goes), so the index may go on changing while it is written.
   * Caches (postings, bitsets, rank groups, scratch arrays, the analyzer's) are not part of
   * it: they follow from the rest.
   */
  image(): IndexImageData {
    const sink = new ImageSink();
    const n = this.nextOrdinal;
    sink.value('schema', schemaFingerprint(this.schema));
    sink.value('languages', this.analysed === undefined ? null : this.languages.join(','));
    sink.value('ordinals', n);
    sink.value('live', this.liveCount);
    this.ids.image(sink, 'ids', n);
    sink.view('idHash', this.idHash.array, n);
    sink.copy('liveBits', this.live.array, n);
    this.byId.image(sink, 'byId');
    sink.view('fieldMask', this.fieldMask.array, n);
    sink.view('exactA', this.exactA.array, n);
    sink.view('exactB', this.exactB.array, n);
    this.terms.image(sink, 'terms');
    sink.copy('termDocs', this.termDocs.array, Math.min(this.terms.size, this.termDocs.array.length));
    this.text.image(sink, 'text');
    this.facets.forEach((f, i) => f.image(sink, `facet.${i}`, n));
    this.numbers.forEach((g, i) => sink.view(`number.${i}`, g.array, Math.min(n, g.array.length)));
    this.schema.sortKeys.forEach((_, i) => {
      const numbers = this.sortNumbers[i];
      if (numbers) sink.view(`sort.${i}`, numbers.array, Math.min(n, numbers.array.length));
      else {
        this.sortStrings[i]!.image(sink, `sort.${i}`, n);
        this.sortRanks[i]!.image(sink, `sortRank.${i}`, n);
      }
    });
    this.idRanks.image(sink, 'idRank', n);
    this.displays.image(sink, 'displays', n);
    this.spellings.image(sink, 'spellings');
    this.analysed?.image(sink, 'analysed');
    return { values: sink.values, sections: sink.sections };
  }

  /**
   * An index of `schema` holding what an image holds (indexImage.ts). Throws ImageError
   * (or a RangeError) when the image does not fit together or is of another schema.
   */
  static fromImage(schema: Schema, source: ImageSource, options: SearchIndexOptions = {}): SearchIndex {
    const index = new SearchIndex(schema, options);
    const fingerprint = schemaFingerprint(schema);
    if (source.value<string>('schema') !== fingerprint) throw new ImageError(`the ${schema.kind} index was written for another schema`);
    if (index.analysed !== undefined && source.value<string | null>('languages') !== index.languages.join(','))
      throw new ImageError(`the ${schema.kind} index was written for other search.languages`);
    index.restore(source);
    return index;
  }

  private restore(source: ImageSource): void {
    const n = source.value<number>('ordinals');
    this.nextOrdinal = n;
    this.liveCount = source.value<number>('live');
    this.ids.restore(source, 'ids');
    this.idHash.restore(source.typed('idHash', 'u32'));
    const liveBits = source.lent('liveBits', 'u8');
    this.live.restore(liveBits.array, liveBits.lent);
    this.byId.restore(source, 'byId');
    this.fieldMask.restore(source.typed('fieldMask', 'u32'));
    this.exactA.restore(source.typed('exactA', 'u32'));
    this.exactB.restore(source.typed('exactB', 'u32'));
    this.terms.restore(source, 'terms');
    const termDocs = source.lent('termDocs', 'u32');
    this.termDocs.restore(termDocs.array, termDocs.lent);
    this.text.restore(source, 'text');
    this.facets.forEach((f, i) => f.restore(source, `facet.${i}`));
    this.numbers.forEach((g, i) => g.restore(source.typed(`number.${i}`, 'f64')));
    this.schema.sortKeys.forEach((_, i) => {
      const numbers = this.sortNumbers[i];
      if (numbers) numbers.restore(source.typed(`sort.${i}`, 'f64'));
      else {
        this.sortStrings[i]!.restore(source, `sort.${i}`);
        this.sortRanks[i]!.restore(source, `sortRank.${i}`);
      }
    });
    this.idRanks.restore(source, 'idRank');
    this.displays.restore(source, 'displays');
    this.spellings.restore(source, 'spellings');
    this.analysed?.restore(source, 'analysed');
    let live = 0;
    const bits = this.live.array;
    for (let d = 0; d < n; d++) live += bits[d]!;
    const formsFit = this.analysed === undefined || this.analysed.pool.count === this.analysed.forms.size;
    if (bits.length !== n || live !== this.liveCount || this.text.count !== this.terms.size || !formsFit)
      throw new ImageError(`the ${this.schema.kind} index's parts do not add up`);
    this.version = 1;
  }

  /** Live documents. */
  get size(): number {
    return this.liveCount;
  }

  /** Ordinals handed out so far (live or not). */
  get ordinals(): number {
    return this.nextOrdinal;
  }

  has(id: string): boolean {
    return this.byId.get(id) !== undefined;
  }

  /** The id of an ordinal (of a deleted document too). */
  id(ord: number): string {
    return this.ids.get(ord)!;
  }

  /** Adds a document, or replaces the one with the same id. */
  upsert(doc: SearchDocument): void {
    if (typeof doc.id !== 'string' || doc.id === '') throw new Error(`${this.schema.kind} document without an id`);
    this.delete(doc.id);
    const ord = this.nextOrdinal++;
    this.ids.set(ord, doc.id);
    this.idHash.set(ord, hashString(doc.id));
    this.live.set(ord, 1);
    this.byId.add(ord);
    this.idRanks.set(ord);
    this.liveCount++;
    this.version++;
    const display = doc.text[this.schema.text[0]!.name]?.[0];
    this.displays.set(ord, typeof display === 'string' ? display : undefined);
    this.indexText(ord, doc);
    this.indexFacets(ord, doc);
    this.filterCounts.added(ord);
    this.schema.numbers.forEach((f, i) => {
      const v = doc.numbers[f.name];
      this.numbers[i]!.set(ord, typeof v === 'number' && Number.isFinite(v) ? v : NaN);
    });
    this.schema.sortKeys.forEach((k, i) => {
      const v = doc.sort[k.name];
      if (k.type === 'number') this.sortNumbers[i]!.set(ord, typeof v === 'number' && Number.isFinite(v) ? v : NaN);
      else {
        this.sortStrings[i]!.set(ord, typeof v === 'string' ? v : undefined);
        this.sortRanks[i]!.set(ord);
      }
    });
  }

  /** Removes a document; false when the id is unknown. */
  delete(id: string): boolean {
    const ord = this.byId.get(id);
    if (ord === undefined) return false;
    this.filterCounts.removed(ord);
    this.keptWords.removed(ord);
    this.live.own()[ord] = 0;
    this.liveCount--;
    this.version++;
    for (const f of this.facets) f.delete(ord);
    return true;
  }

  /**
   * Postings of one document: its folded terms and, in the analysed fields, their analysed
   * forms in the document's languages (analysedForms.ts), at the same positions.
   */
  private indexText(ord: number, doc: SearchDocument): void {
    const tok = this.tok;
    const occ = this.occurrences;
    const forms = this.analysed;
    const formOcc = this.formOccurrences;
    occ.clear();
    formOcc.clear();
    const languages =
      forms === undefined ? NO_LANGUAGES : forms.indexesOf(forms.languagesOf(doc.facets[this.schema.analysis!.languageFacet]));
    let mask = 0;
    let key = '';
    const schemaText = this.schema.text;
    for (let fi = 0; fi < schemaText.length; fi++) {
      const values = doc.text[schemaText[fi]!.name] ?? [];
      const analysed = forms !== undefined && ((this.analysedMask >>> fi) & 1) === 1;
      let pos = 0;
      for (let vi = 0; vi < values.length; vi++) {
        const value = values[vi]!;
        tok.n = 0;
        this.analyzer.analyze(value, tok);
        if (tok.n > 0) mask |= 1 << fi;
        if (fi === 0 && vi === 0 && tok.n > 0) {
          const words: string[] = [];
          for (let k = 0; k < tok.n; k++) words.push(this.terms.string(tok.ids[k]!));
          key = words.sort().join(' ');
        }
        occ.reserve(tok.n, this.terms.size + 1);
        for (let k = 0; k < tok.n; k++) occ.add(tok.ids[k]!, ord, fi, pos + k);
        if (analysed && languages.length > 0 && tok.n > 0) this.indexForms(forms, languages, value, ord, fi, pos);
        // the gap between two values: wider than the largest slop, so that no phrase,
        // sloppy or not, spans two values (src/query/prepare.ts MAX_SLOP; Solr's
        // positionIncrementGap is 100); 102 is still a one-byte position delta
        pos += tok.n + VALUE_GAP;
      }
    }
    this.fieldMask.set(ord, mask >>> 0);
    this.exactA.set(ord, key === '' ? 0 : hashString(key));
    this.exactB.set(ord, key === '' ? 0 : hashString2(key));
    occ.write(ord, this.text, this.termDocs.ensure(this.terms.size));
    if (forms !== undefined) formOcc.write(ord, forms.pool, undefined);
  }

  /** The analysed forms of the tokens in `this.tok` (one value, from position `pos`); `languages`: indexes of LANGUAGES. */
  private indexForms(forms: AnalysedForms, languages: readonly number[], value: string, ord: number, fi: number, pos: number): void {
    const tok = this.tok;
    const n = tok.n;
    const occ = this.formOccurrences;
    const nl = languages.length;
    // forms interned below get ids up to this
    occ.reserve(n * (nl + 1), forms.forms.size + n * (nl + 1) + 1);
    const hosts = hasApostrophe(value) ? this.elisionsOf(value) : undefined;
    if (hosts === undefined || hosts.length !== n) {
      if (nl === 1) {
        const l = languages[0]!;
        for (let k = 0; k < n; k++) {
          const f = forms.formOf(tok.ids[k]!, l);
          if (f >= 0) occ.add(f, ord, fi, pos + k);
        }
        return;
      }
      if (nl === 2) {
        const l0 = languages[0]!;
        const l1 = languages[1]!;
        for (let k = 0; k < n; k++) {
          const t = tok.ids[k]!;
          const f0 = forms.formOf(t, l0);
          const f1 = forms.formOf(t, l1);
          if (f0 >= 0) occ.add(f0, ord, fi, pos + k);
          if (f1 >= 0 && f1 !== f0) occ.add(f1, ord, fi, pos + k);
        }
        return;
      }
      for (let k = 0; k < n; k++) this.formsAt(forms, languages, tok.ids[k]!, false, ord, fi, pos + k);
      return;
    }
    for (let k = 0; k < n; k++) {
      let h = k + hosts[k]!;
      if (h < 0 || h >= n) h = k;
      this.formsAt(forms, languages, tok.ids[h]!, h !== k, ord, fi, pos + k);
    }
  }

  private readonly seenForms: number[] = [];
  /** elisions() of values with an apostrophe (values repeat: a provider's name on each of its items); dropped whole when full. */
  private elisionCache = new Map<string, Int8Array | null>();

  private elisionsOf(value: string): Int8Array | undefined {
    let e = this.elisionCache.get(value);
    if (e === undefined) {
      if (this.elisionCache.size >= 50_000) this.elisionCache = new Map();
      e = elisions(value) ?? null;
      this.elisionCache.set(value, e);
    }
    return e ?? undefined;
  }

  /** At one position: the forms of term `t` (with `self`, `t` itself first), each once. */
  private formsAt(forms: AnalysedForms, languages: readonly number[], t: number, self: boolean, ord: number, fi: number, at: number): void {
    const seen = this.seenForms;
    seen.length = 0;
    // an elided article or a possessive `s` carries its word as well as the word's forms
    if (self) seen.push(forms.intern(this.terms.string(t)));
    for (let i = 0; i < languages.length; i++) {
      const f = forms.formOf(t, languages[i]!);
      if (f >= 0 && !seen.includes(f)) seen.push(f);
    }
    for (let i = 0; i < seen.length; i++) this.formOccurrences.add(seen[i]!, ord, fi, at);
  }

  private indexFacets(ord: number, doc: SearchDocument): void {
    this.schema.facets.forEach((name, fi) => {
      const values = doc.facets[name];
      const distinct = values === undefined ? [] : [...new Set(values.filter((v) => typeof v === 'string'))];
      this.facets[fi]!.add(ord, distinct);
    });
  }

  /**
   * Brings the ranks of sort keys and ids up to date (ranks.ts) where more than `minStale`
   * ordinals are newer than them; by default more than an eighth of the ordinals, at least
   * 4096, which a search checks. A feed that has caught up passes 1024 (feed.ts), so that
   * searches rarely pay for it. `share`: into shared memory, for the other replicas of a pool
   * (`sharedRanks`, `adoptRanks`; ranks.ts).
   */
  refreshOrders(minStale = Math.max(4096, this.ordinals >>> 3), share = false): void {
    for (const r of [this.idRanks, ...this.sortRanks]) if (r && r.stale > minStale) r.refresh(this.ordinals, share);
  }

  /** The ranks whose last refresh was made in shared memory, by key (-1: the ids), for the other replicas. */
  sharedRanks(): RanksOfKey[] {
    const out: RanksOfKey[] = [];
    const idRanks = this.idRanks.shared();
    if (idRanks) out.push({ key: -1, ranks: idRanks });
    this.sortRanks.forEach((r, key) => {
      const shared = r?.shared();
      if (shared) out.push({ key, ranks: shared });
    });
    return out;
  }

  /**
   * Takes another replica's refreshes (`sharedRanks`) of the same documents at the same
   * ordinals (docs/search-engine.md "One copy per node"); how many were taken.
   */
  adoptRanks(refreshes: readonly RanksOfKey[]): number {
    let taken = 0;
    for (const { key, ranks } of refreshes) {
      const r = key === -1 ? this.idRanks : this.sortRanks[key];
      if (r?.adopt(ranks, this.ordinals)) taken++;
    }
    return taken;
  }

  /** Live ordinals, ascending (cached until the next change). */
  allLive(): Uint32Array {
    if (this.allCache?.version === this.version) return this.allCache.docs;
    const out = new Uint32Array(this.liveCount);
    const live = this.live.array;
    let n = 0;
    for (let d = 0; d < this.nextOrdinal; d++) if (live[d] === 1) out[n++] = d;
    this.allCache = { version: this.version, docs: out };
    return out;
  }

  /**
   * Live documents with a term in any field (exact, by reading its postings): the document
   * frequency the spellchecker (spellcheck.ts) ranks corrections by. 0 for an unknown term.
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

  /**
   * Live documents with a term in any field, as a relevance search weighs it (postings.ts
   * liveDf), from its postings decoded for `field` and kept between searches: "more like this"
   * (src/search/moreLikeThis.ts) asks it of each word it may compare by, and then reads the
   * same lists. 0 for an unknown term or field.
   */
  liveDocumentFrequency(field: string, term: string, deadline: number): number {
    const id = this.terms.get(fold(term));
    const t = this.textField.get(field);
    if (id === undefined || t === undefined) return 0;
    return liveDf(this, new Postings(this, new Deadline(deadline, this.now)).decoded(id, 1 << t, false));
  }

  /**
   * The value of facet `of` the most live documents with `value` in facet `field` carry, ''
   * when none does: a point's name on the places page (valueNames.ts).
   */
  nameOf(field: string, value: string, of: string, deadline: number): string {
    return this.valueNames.nameOf(field, value, of, deadline);
  }

  /** How the most documents indexed with a folded term spell it, lower case (`zurich` → `zürich`): what a correction shows. */
  spelling(term: string): string {
    const id = this.terms.get(term);
    return id === undefined ? term : this.spellings.best(id, term, this.termDocs.array[id] ?? 0);
  }

  /** The indexed terms starting with `prefix` (already folded), in code point order: the vocabulary for suggestions and spelling. */
  termsWithPrefix(prefix: string): string[] {
    const ids = this.terms.withPrefix(
      prefix,
      () => true,
      Infinity,
      () => new Error('unreachable'),
    );
    return ids.map((id) => this.terms.string(id));
  }

  /**
   * Up to `limit` completions of `prefix` (folded) among the first values of the first text
   * field, shown as written (suggest.ts). Needs a string sort key of that field's name
   * (title, preferredName); without one there is nothing to complete.
   */
  suggest(prefix: string, limit: number): string[] {
    if (this.suggester === undefined) {
      const key = this.sortKey.get(this.schema.text[0]!.name);
      if (key === undefined || this.sortStrings[key] === undefined) return [];
      this.suggester = new Suggester(this, key);
    }
    return this.suggester.suggest(prefix, limit);
  }

  /** The ordinals of string sort key `key` (-1: of the id) grouped by rank (rankLists.ts). */
  rankLists(key: number): RankLists {
    let l = this.lists.get(key);
    if (l === undefined) this.lists.set(key, (l = new RankLists(this, key === -1 ? this.idRanks : this.sortRanks[key]!)));
    return l;
  }

  /** Bytes in typed arrays and pools (JS strings and maps not counted). */
  get poolBytes(): number {
    let n = this.text.bytes;
    for (const f of this.facets) n += f.bytes;
    return n;
  }

  /**
   * `limits`: the service's bounds on wildcards (evaluate.ts ExpansionLimits); without, at
   * most MAX_WILDCARD_TERMS words per wildcard. `shards`: SearchIndexOptions.shards.
   */
  search(
    request: SearchRequest,
    deadline: number,
    limits: ExpansionLimits | undefined = this.limits,
    shards: number = this.shards,
  ): SearchResult {
    return runSearch(this, request, deadline, limits, shards);
  }

  /**
   * Shard `shard` of `shards` of a search scattered over threads holding this index alike: the
   * query evaluated over this shard's range of ordinals (search.ts runSearchPart), merged by
   * shards.ts mergeParts.
   */
  searchPart(request: SearchRequest, deadline: number, shard: number, shards: number): SearchPart {
    return runSearchPart(this, request, deadline, shard, shards, this.limits);
  }
}
