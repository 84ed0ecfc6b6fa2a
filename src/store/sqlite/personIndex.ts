/**
 * The in-memory side of the entity search on SQLite: per-row columns loaded
 * once from the store of record and rebuilt when the data changes.
 *
 * Counting facets and ordering large hit sets with per-query SQL
 * aggregation costs 0.3-1 s at a million persons
 * (shared/notes/measurements.md); over typed arrays indexed by row number
 * the same work is a pass over the hits. SQLite stays the store of record.
 */
import type { Database } from 'better-sqlite3';
import { FACETS } from '../../search/entitySearch.js';
import type { RowSet } from '../../search/sets.js';
import { FacetValues } from './facetValues.js';

export const NO_YEAR = -2147483648;

export interface FacetColumn {
  /** Distinct values in code point order; a value's id is its rank. */
  values: FacetValues;
  /** Values of row r are ids[offsets[r] .. offsets[r + 1]). */
  offsets: Uint32Array;
  ids: Uint32Array;
}

export class PersonIndex {
  readonly all: RowSet;
  readonly live: Uint8Array;
  readonly fieldsMask: Uint16Array;
  readonly birth: Int32Array;
  readonly death: Int32Array;
  readonly count: Uint32Array;
  /** Rank by (folded name, id). */
  readonly alphaRank: Uint32Array;
  /** Rank by (folded name descending, id). */
  readonly alphaDescRank: Uint32Array;
  /** Rank by (count descending, folded name, id): the order within a relevance tier, and COUNT_DESC. */
  readonly staticRank: Uint32Array;
  readonly facets: FacetColumn[];
  private readonly postings: Array<FacetPostings | undefined> = [];

  /** Rows having a facet value (built on the first filter on that facet). */
  rowsWithValue(facet: number, value: string): RowSet {
    let p = this.postings[facet];
    if (!p) {
      p = new FacetPostings(this.facets[facet]!);
      this.postings[facet] = p;
    }
    return p.rowsOf(value);
  }

  constructor(db: Database) {
    const max = (db.prepare('SELECT coalesce(max(rowid), 0) AS m FROM persons').get() as { m: number }).m;
    const size = max + 1;
    this.live = new Uint8Array(size);
    this.fieldsMask = new Uint16Array(size);
    this.birth = new Int32Array(size).fill(NO_YEAR);
    this.death = new Int32Array(size).fill(NO_YEAR);
    this.count = new Uint32Array(size);
    const rows: number[] = [];
    const select = db.prepare('SELECT rowid, fields_mask, birth_year, death_year, item_count FROM persons ORDER BY rowid').raw();
    for (const [rowid, mask, birth, death, count] of select.iterate() as Iterable<[number, number, number | null, number | null, number]>) {
      rows.push(rowid);
      this.live[rowid] = 1;
      this.fieldsMask[rowid] = mask;
      if (birth !== null) this.birth[rowid] = birth;
      if (death !== null) this.death[rowid] = death;
      this.count[rowid] = count;
    }
    this.all = Uint32Array.from(rows);
    const rank = (orderBy: string) => {
      const out = new Uint32Array(size);
      let r = 0;
      for (const rowid of db.prepare(`SELECT rowid FROM persons ORDER BY ${orderBy}`).pluck().iterate() as Iterable<number>) out[rowid] = r++;
      return out;
    };
    this.alphaRank = rank('sort_key, id');
    this.alphaDescRank = rank('sort_key DESC, id');
    this.staticRank = rank('item_count DESC, sort_key, id');
    this.facets = FACETS.map((_, facet) => loadFacet(db, facet, size));
  }
}

/**
 * One facet as a per-row column (CSR). Built from typed arrays: the facet has
 * millions of (person, value) pairs at national scale, and holding them as JS
 * tuples made the index build the server's memory peak (issue #5: ≤ 400 MB).
 */
function loadFacet(db: Database, facet: number, size: number): FacetColumn {
  const values = new FacetValues();
  let persons = new Uint32Array(1 << 16);
  let valueOf = new Uint32Array(1 << 16);
  let n = 0;
  let lastValue: string | undefined;
  let lastId = 0;
  // The primary key's order: by value (BINARY, i.e. code point order), then person; no sort step.
  const select = db.prepare('SELECT person, value FROM person_facets WHERE facet = ? ORDER BY value, person').raw();
  for (const [person, value] of select.iterate(facet) as Iterable<[number, string]>) {
    if (value !== lastValue) {
      lastId = values.push(value);
      lastValue = value;
    }
    if (n === persons.length) {
      const grownPersons = new Uint32Array(n * 2);
      grownPersons.set(persons);
      persons = grownPersons;
      const grownValues = new Uint32Array(n * 2);
      grownValues.set(valueOf);
      valueOf = grownValues;
    }
    persons[n] = person;
    valueOf[n] = lastId;
    n++;
  }
  // Counting sort by person; within a row, values stay in the order read.
  const offsets = new Uint32Array(size + 1);
  for (let i = 0; i < n; i++) offsets[persons[i]! + 1]!++;
  for (let r = 1; r <= size; r++) offsets[r] = offsets[r]! + offsets[r - 1]!;
  const next = offsets.slice(0, size);
  const ids = new Uint32Array(n);
  for (let i = 0; i < n; i++) ids[next[persons[i]!]!++] = valueOf[i]!;
  values.seal();
  return { values, offsets, ids };
}

/**
 * Rows having each value of a facet, for filters: the per-row column
 * inverted once (counting sort), rows ascending within each value.
 */
export class FacetPostings {
  private readonly starts: Uint32Array;
  private readonly rows: Uint32Array;

  constructor(private readonly column: FacetColumn) {
    const counts = new Uint32Array(column.values.size + 1);
    for (let j = 0; j < column.ids.length; j++) counts[column.ids[j]! + 1] = counts[column.ids[j]! + 1]! + 1;
    for (let v = 1; v < counts.length; v++) counts[v] = counts[v]! + counts[v - 1]!;
    this.starts = counts.slice();
    const fill = counts.slice();
    this.rows = new Uint32Array(column.ids.length);
    const rowsCount = column.offsets.length - 1;
    for (let row = 0; row < rowsCount; row++) {
      for (let j = column.offsets[row]!; j < column.offsets[row + 1]!; j++) {
        const v = column.ids[j]!;
        this.rows[fill[v]!] = row;
        fill[v] = fill[v]! + 1;
      }
    }
  }

  rowsOf(value: string): RowSet {
    const v = this.column.values.find(value);
    return v === undefined ? new Uint32Array(0) : this.rows.subarray(this.starts[v]!, this.starts[v + 1]!);
  }
}
