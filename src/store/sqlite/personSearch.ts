/**
 * The entity search on SQLite (spec 4.2, decisions.md "Entity search").
 *
 * A query tree becomes sets of row numbers: text leaves are FTS5 MATCH
 * queries over the folded text (the MATCH text is a bound parameter built
 * only from folded letter/digit tokens and fixed column names), the rest
 * (ranges, field:*, *:*) come from the in-memory columns of PersonIndex.
 * AND/OR/NOT are merges of sorted sets; facets, filters, ordering and
 * paging work on the resulting hit set in memory.
 */
import type { Database, Statement } from 'better-sqlite3';
import { canonicalPersonId } from '../../ingest/persons/person.js';
import type { QueryField, QueryNode } from '../../query/ast.js';
import { decodeCursor, encodeCursor } from '../../search/cursor.js';
import { FACETS, SearchRequestError, type EntitySearch, type EntitySearchResult, type FacetResult } from '../../search/entitySearch.js';
import { fold, tokens, yearOf } from '../../search/fold.js';
import { FIELD_BIT, isTextField, TEXT_FIELDS, VALUE_GAP, withCount, nameKey, type TextField } from '../../search/personFields.js';
import { compileGlob } from '../../search/glob.js';
import { Deadline, DEFAULT_LIMITS, SearchLimitError, type SearchLimits, type SearchOptions } from '../../search/searchLimits.js';
import { difference, EMPTY, intersect, union, type RowSet } from '../../search/sets.js';
import { smallestK } from '../../search/topK.js';
import { LruCache } from '../../lruCache.js';
import { NO_YEAR, PersonIndex } from './personIndex.js';
import { readPersonsVersion } from './persons.js';

/** Facet top-k keys: (COUNT_CEILING - count) * ID_SPAN + value id, exact below 2^53. */
const COUNT_CEILING = 2 ** 24;
const ID_SPAN = 2 ** 29;

const TIER = 2 ** 32;

const phrase = (toks: readonly string[]) => `"${toks.join(' ')}"`;
const columns = (fields: readonly TextField[]) => `{${fields.join(' ')}}`;

/**
 * Row sets of full-text leaves kept between searches, by MATCH text, until the
 * data changes. Frequent terms repeat (their frequencies are Zipf-like), and
 * fetching the ~200,000 rows of a very common term from FTS5 is most of what
 * such a search costs (~30 ms of ~45 ms at 1 M persons); like Lucene's filter
 * cache, this keeps them. Bounded in bytes: 4 bytes a row.
 */
const LEAF_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Words each wildcard stood for, by pattern, until the data changes: a
 * leading wildcard reads the whole vocabulary, and the same pattern repeated
 * (`*qx* OR *qx* OR …`, issue #13) then reads it once.
 */
const EXPANSION_CACHE_BYTES = 8 * 1024 * 1024;

/** Vocabulary words read between two looks at the deadline. */
const CHECK_EVERY = 256;

interface Expansion {
  words: string[];
  /** More words than the limit matched; `words` holds the first limit + 1. */
  overflow: boolean;
}

/** What one evaluation carries along. */
interface Evaluation {
  index: PersonIndex;
  matched: Array<{ text: string; rows: RowSet }>;
  limits: SearchLimits;
  deadline: Deadline;
  /** Words all wildcards of the query stood for so far. */
  expansions: number;
}

export class SqlitePersonSearch {
  private current: PersonIndex | undefined;
  private leaves = new LruCache<RowSet>(LEAF_CACHE_BYTES, (rows) => rows.byteLength + 64);
  private expansions = new LruCache<Expansion>(EXPANSION_CACHE_BYTES, (e) => e.words.reduce((n, w) => n + 2 * w.length + 32, 64));
  /** The other connections' commit count last seen, and the persons version the index was built from. */
  private seenCommits = -1;
  private builtFrom = -1;
  /** How many times the in-memory index was built: each costs seconds at a million persons. */
  indexBuilds = 0;
  private readonly personsVersion: () => number;
  private readonly match: Statement<[string], number>;
  private readonly byId: Statement<[string], number>;
  private readonly byNameKey: Statement<[string], number>;
  private readonly bySortKey: Statement<[string, string], number>;
  private readonly vocab: Statement<[string, string], string>;
  private readonly doc: Statement<[number], { doc: string; item_count: number }>;

  /** `otherCommits`: PRAGMA data_version, which moves when another connection commits. */
  constructor(
    private readonly db: Database,
    private readonly otherCommits: () => number,
  ) {
    this.personsVersion = readPersonsVersion(db);
    this.match = db.prepare<[string], number>('SELECT rowid FROM persons_fts WHERE persons_fts MATCH ? ORDER BY rowid').pluck();
    this.byId = db.prepare<[string], number>('SELECT rowid FROM persons WHERE id = ?').pluck();
    this.byNameKey = db.prepare<[string], number>('SELECT rowid FROM persons WHERE name_key = ? ORDER BY rowid').pluck();
    this.bySortKey = db.prepare<[string, string], number>('SELECT rowid FROM persons WHERE sort_key >= ? AND sort_key <= ? ORDER BY rowid').pluck();
    this.vocab = db.prepare<[string, string], string>('SELECT DISTINCT term FROM persons_vocab WHERE term >= ? AND term < ?').pluck();
    this.doc = db.prepare('SELECT doc, item_count FROM persons WHERE rowid = ?');
  }

  /** Marks the in-memory columns stale after a write through this connection. */
  invalidate(): void {
    this.current = undefined;
    this.leaves.clear();
    this.expansions.clear();
  }

  /** The in-memory columns, built or rebuilt when the data changed. */
  refresh(): void {
    this.index();
  }

  private index(): PersonIndex {
    const commits = this.otherCommits();
    if (this.current && commits === this.seenCommits) return this.current;
    this.seenCommits = commits;
    // Another connection committed: rebuild only if it touched persons (items and keys do not).
    // The version is read before the rows, so a commit in between costs a rebuild, never staleness.
    const persons = this.personsVersion();
    if (!this.current || persons !== this.builtFrom) {
      this.current = new PersonIndex(this.db);
      this.indexBuilds++;
      this.builtFrom = persons;
      this.leaves.clear();
      this.expansions.clear();
    }
    return this.current;
  }

  search(req: EntitySearch, options: SearchOptions = {}): EntitySearchResult {
    const index = this.index();
    const deadline = options.deadline ?? Deadline.NONE;
    const matched: Array<{ text: string; rows: RowSet }> = [];
    const ev: Evaluation = { index, matched, limits: options.limits ?? DEFAULT_LIMITS, deadline, expansions: 0 };
    let hits = this.evaluate(req.query, ev, false);
    deadline.check();
    for (const [facet, values] of req.filters) {
      const f = FACETS.indexOf(facet);
      let allowed = EMPTY;
      for (const v of values) allowed = union(allowed, index.rowsWithValue(f, v));
      hits = intersect(hits, allowed);
    }
    const key = this.sortKey(req, index);
    let after = -Infinity;
    if (req.cursorMark !== undefined && req.cursorMark !== '*') {
      const c = decodeCursor(req.cursorMark, req.fingerprint);
      // The row's key under the current data, so a cursor survives a reload of the columns.
      after = index.live[c.row] === 1 ? key(c.row) : c.key;
    }
    const skip = req.cursorMark === undefined ? req.offset : 0;
    deadline.check();
    const page = smallestK(hits, key, skip + req.rows, after).slice(skip);
    deadline.check();
    const docs = page.map((row) => {
      const d = this.doc.get(row)!;
      return withCount(d.doc, d.item_count);
    });
    let nextCursorMark: string | undefined;
    if (req.cursorMark !== undefined) {
      const last = page[page.length - 1];
      nextCursorMark = last === undefined ? req.cursorMark : encodeCursor(req.fingerprint, last, key(last));
    }
    const highlightedTerms = [...new Set(matched.filter((m) => intersect(m.rows, hits).length > 0).map((m) => m.text))];
    return { total: hits.length, docs, facets: this.countFacets(req, hits, index, deadline), highlightedTerms, nextCursorMark };
  }

  private countFacets(req: EntitySearch, hits: RowSet, index: PersonIndex, deadline: Deadline): FacetResult[] {
    return req.facets.map((facet) => {
      deadline.check();
      const column = index.facets[FACETS.indexOf(facet)]!;
      const counts = new Uint32Array(column.values.size);
      const seen: number[] = [];
      for (let i = 0; i < hits.length; i++) {
        const row = hits[i]!;
        for (let j = column.offsets[row]!; j < column.offsets[row + 1]!; j++) {
          const id = column.ids[j]!;
          if (counts[id] === 0) seen.push(id);
          counts[id] = counts[id]! + 1;
        }
      }
      // Descending count, ties by value; ids are ranks in value order, so by id. Only
      // the values listed become strings (the name facet has ~1 value per person).
      const listed = seen.filter((id) => counts[id]! > req.minDocs);
      const top =
        hits.length < COUNT_CEILING && column.values.size < ID_SPAN
          ? smallestK(listed, (id) => (COUNT_CEILING - counts[id]!) * ID_SPAN + id, req.facetLimit)
          : listed.sort((a, b) => counts[b]! - counts[a]! || a - b).slice(0, req.facetLimit);
      return { field: facet, values: top.map((id) => ({ value: column.values.get(id), count: counts[id]! })) };
    });
  }

  /** A unique, totally ordered key per row for the requested sort. */
  private sortKey(req: EntitySearch, index: PersonIndex): (row: number) => number {
    const sort = req.sort;
    if (sort.kind === 'alpha') {
      const rank = sort.descending ? index.alphaDescRank : index.alphaRank;
      return (row) => rank[row]!;
    }
    if (sort.kind === 'count') return (row) => index.staticRank[row]!;
    if (sort.kind === 'random') {
      const seed = hashString(sort.seed);
      // Row numbers are kept across updates, so one seed gives the same order for the same persons.
      return (row) => mix(seed ^ row) * 2 ** 21 + (row & 0x1fffff);
    }
    // Relevance: an exact preferred-name match first, then the query's terms in the
    // preferred name, then the rest; within a tier by count, then name (issue #3).
    const terms = positiveNameTerms(req.query);
    if (terms.length === 0) return (row) => index.staticRank[row]!;
    const exact = Uint32Array.from(this.byNameKey.all(nameKey(terms.join(' '))));
    // The parentheses matter: FTS5 binds a column filter to the one phrase after it.
    const inName = this.ftsRows(`${columns(['preferredName'])} : (${terms.map((t) => phrase(tokens(t))).join(' AND ')})`);
    return (row) => (has(exact, row) ? 0 : has(inName, row) ? TIER : 2 * TIER) + index.staticRank[row]!;
  }

  private evaluate(node: QueryNode, ev: Evaluation, negated: boolean): RowSet {
    ev.deadline.check();
    const { index, matched } = ev;
    switch (node.kind) {
      case 'all':
        return index.all;
      case 'and': {
        const positive = node.children.filter((c) => c.kind !== 'not');
        const negative = node.children.filter((c): c is Extract<QueryNode, { kind: 'not' }> => c.kind === 'not');
        let rows = positive.length === 0 ? index.all : positive.map((c) => this.evaluate(c, ev, negated)).reduce(intersect);
        for (const n of negative) rows = difference(rows, this.evaluate(n.child, ev, !negated));
        return rows;
      }
      case 'or':
        return node.children.map((c) => this.evaluate(c, ev, negated)).reduce(union, EMPTY);
      case 'not':
        return difference(index.all, this.evaluate(node.child, ev, !negated));
      case 'exists':
        return this.exists(node.field, index);
      case 'range':
        return this.range(node, index);
      default: {
        const rows = this.leaf(node, ev);
        if (!negated) {
          const text = node.kind === 'prefix' ? `${node.text}*` : node.kind === 'wildcard' ? node.pattern : node.text;
          matched.push({ text, rows });
        }
        return rows;
      }
    }
  }

  private leaf(node: Extract<QueryNode, { kind: 'term' | 'phrase' | 'prefix' | 'wildcard' }>, ev: Evaluation): RowSet {
    const { index } = ev;
    const field = node.field;
    const text = node.kind === 'wildcard' ? node.pattern : node.text;
    if (field === 'id') return this.idRows(node.kind, text);
    if (field === 'type') return node.kind !== 'wildcard' && fold(text) === 'person' ? index.all : EMPTY;
    if (field === 'count') {
      const n = Number(text);
      if (node.kind !== 'term' || !Number.isInteger(n)) throw new SearchRequestError(`count: expects a whole number, e.g. count:3 or count:[1 TO *]; got '${text}'.`);
      return index.all.filter((row) => index.count[row] === n);
    }
    const fields: readonly TextField[] = field === null ? TEXT_FIELDS : [field as TextField];
    if (node.kind === 'wildcard') return this.wildcard(node.pattern, fields, ev);
    const toks = tokens(text);
    if (toks.length === 0) return node.kind === 'prefix' ? this.existsAny(fields, index) : EMPTY;
    return this.ftsRows(`${columns(fields)} : ${phrase(toks)}${node.kind === 'prefix' ? ' *' : ''}`);
  }

  private idRows(kind: QueryNode['kind'], text: string): RowSet {
    if (kind === 'term' || kind === 'phrase') {
      const id = canonicalPersonId(text) ?? text;
      const row = this.byId.get(id);
      return row === undefined ? EMPTY : Uint32Array.of(row);
    }
    throw new SearchRequestError('id: takes a whole identifier, e.g. id:"http://d-nb.info/gnd/118540238"; wildcards are not supported on id.');
  }

  private wildcard(pattern: string, fields: readonly TextField[], ev: Evaluation): RowSet {
    const folded = fold(pattern.replace(/\\(.)/g, '$1'));
    if (/[^\p{L}\p{N}*?]/u.test(folded)) {
      throw new SearchRequestError(`The wildcard '${pattern}' spans several words; a wildcard matches within one word.`);
    }
    const max = ev.limits.maxExpansionsPerTerm;
    const { words, overflow } = this.expand(folded, max, ev.deadline);
    if (overflow) throw new SearchLimitError({ key: 'wildcardTooBroad', pattern, max });
    ev.expansions += words.length;
    if (ev.expansions > ev.limits.maxExpansionsPerQuery) throw new SearchLimitError({ key: 'queryTooBroad', max: ev.limits.maxExpansionsPerQuery });
    if (words.length === 0) return EMPTY;
    ev.deadline.check();
    return this.ftsRows(`${columns(fields)} : (${words.map((t) => `"${t}"`).join(' OR ')})`);
  }

  /**
   * The vocabulary's words that a folded pattern matches, at most max + 1:
   * the words from the pattern's literal start on, through a matcher that
   * does not backtrack (src/search/glob.ts), looking at the deadline as it
   * reads. Kept by pattern until the data changes.
   */
  private expand(folded: string, max: number, deadline: Deadline): Expansion {
    const key = `${max}\u0000${folded}`;
    const cached = this.expansions.get(key);
    if (cached !== undefined) return cached;
    const literal = /^[^*?]*/.exec(folded)![0];
    const glob = compileGlob(folded);
    const words: string[] = [];
    let read = 0;
    let overflow = false;
    for (const word of this.vocab.iterate(literal, `${literal}\uffff`)) {
      if (++read % CHECK_EVERY === 0) deadline.check();
      if (!glob.matches(word) || word.includes(VALUE_GAP)) continue;
      words.push(word);
      if (words.length > max) {
        overflow = true;
        break; // ends the statement: iterate() closes it on break
      }
    }
    const expansion = { words, overflow };
    this.expansions.set(key, expansion);
    return expansion;
  }

  private exists(field: QueryField, index: PersonIndex): RowSet {
    if (field === 'id' || field === 'type' || field === 'count') return index.all;
    return this.existsAny([field as TextField], index);
  }

  private existsAny(fields: readonly TextField[], index: PersonIndex): RowSet {
    const mask = fields.reduce((m, f) => m | FIELD_BIT[f], 0);
    return index.all.filter((row) => (index.fieldsMask[row]! & mask) !== 0);
  }

  private range(node: Extract<QueryNode, { kind: 'range' }>, index: PersonIndex): RowSet {
    const { field } = node;
    if (field === 'dateOfBirth' || field === 'dateOfDeath' || field === 'count') {
      const column = field === 'count' ? index.count : field === 'dateOfBirth' ? index.birth : index.death;
      const bound = (b: string | null) => {
        if (b === null) return null;
        const n = field === 'count' ? Number(b) : (yearOf(b) ?? (/^-?\d+$/.test(b) ? Number(b) : NaN));
        if (!Number.isFinite(n)) {
          throw new SearchRequestError(`${field}:[… TO …] compares ${field === 'count' ? 'numbers' : 'years'}; '${b}' is not one. Example: ${field}:[1800 TO 1850].`);
        }
        return n;
      };
      const lo = bound(node.lower);
      const hi = bound(node.upper);
      return index.all.filter((row) => {
        const v = column[row]!;
        if (v === NO_YEAR && field !== 'count') return false;
        if (lo !== null && (node.includeLower ? v < lo : v <= lo)) return false;
        if (hi !== null && (node.includeUpper ? v > hi : v >= hi)) return false;
        return true;
      });
    }
    if (field === 'preferredName') {
      const lo = node.lower === null ? '' : fold(node.lower);
      const hi = node.upper === null ? '\uffff' : fold(node.upper);
      let rows: RowSet = Uint32Array.from(this.bySortKey.all(lo, hi));
      // Open ends above compare inclusively; exclusive ends drop the equal names.
      if (!node.includeLower && node.lower !== null) rows = difference(rows, Uint32Array.from(this.bySortKey.all(lo, lo)));
      if (!node.includeUpper && node.upper !== null) rows = difference(rows, Uint32Array.from(this.bySortKey.all(hi, hi)));
      return rows;
    }
    throw new SearchRequestError(`Ranges work on dateOfBirth, dateOfDeath, count and preferredName, not on ${field}.`);
  }

  private ftsRows(match: string): RowSet {
    let rows = this.leaves.get(match);
    if (rows === undefined) {
      rows = Uint32Array.from(this.match.all(match));
      this.leaves.set(match, rows);
    }
    return rows;
  }
}

/** Text terms a relevance tier looks for in the preferred name: plain or preferredName terms outside NOT. */
function positiveNameTerms(node: QueryNode): string[] {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.flatMap(positiveNameTerms);
    case 'term':
    case 'phrase':
      return (node.field === null || node.field === 'preferredName') && tokens(node.text).length > 0 ? [node.text] : [];
    default:
      return [];
  }
}

function has(set: RowSet, row: number): boolean {
  let lo = 0;
  let hi = set.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = set[mid]!;
    if (v === row) return true;
    if (v < row) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A 32-bit integer mix (murmur3 finaliser): spreads neighbouring rows apart. */
function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

