/**
 * The children of an item on SQLite (GET /items/{id}/children;
 * docs/decisions.md "Children"): one indexed read of the siblings' hierarchy columns
 * (items_parent_ref), their positions worked out here, then the child count
 * of the rows on the page only.
 *
 * Why the order is made here and not by ORDER BY: an item without
 * ddb:hierarchyPosition takes its position from its place in an
 * edm:isNextInSequence chain (docs/decisions.md "Hierarchy"), which `parents` shows; the order of
 * `children` must agree with the positions it shows, and those chains are
 * walked, not stored. The walk is memoised over the siblings, so a sequence of
 * n pages costs n lookups, not n²/2.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { ChildNode, ChildPage } from '../../domain/hierarchy.js';

/** A sequence (edm:isNextInSequence) longer than this is treated as broken data, as in ./items.ts. */
const MAX_SEQUENCE = 100_000;

interface SiblingRow {
  id: string;
  cho_uri: string | null;
  label: string;
  hierarchy_type: string | null;
  position: string | null;
  previous_ref: string | null;
  aggregation_entity: number;
}

/** Numeric positions first, by value; then other positions, by text; then items without one. */
interface Ordered {
  row: SiblingRow;
  position: string | null;
  rank: 0 | 1 | 2;
  value: number;
}

const NUMERIC = /^[+-]?\d+(?:\.\d+)?$/;

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function compare(a: Ordered, b: Ordered): number {
  if (a.rank !== b.rank) return a.rank - b.rank;
  if (a.rank === 0 && a.value !== b.value) return a.value - b.value;
  if (a.rank === 1) {
    const p = byText(a.position!, b.position!);
    if (p !== 0) return p;
  }
  return byText(a.row.label, b.row.label) || byText(a.row.id, b.row.id);
}

export class SqliteChildren {
  private readonly parentUri: Statement<[string], { cho_uri: string | null }>;
  private readonly siblings: Statement<[string], SiblingRow>;
  private readonly childCount: Statement<[string], { n: number }>;
  private readonly previousOf: Statement<[string], { previous_ref: string | null }>;
  private readonly hasNext: Statement<[string], { id: string }>;

  constructor(db: Database) {
    this.parentUri = db.prepare('SELECT cho_uri FROM items WHERE id = ?');
    this.siblings = db.prepare(
      'SELECT id, cho_uri, label, hierarchy_type, position, previous_ref, aggregation_entity FROM items WHERE parent_ref = ?',
    );
    this.childCount = db.prepare('SELECT count(*) AS n FROM items WHERE parent_ref = ?');
    this.previousOf = db.prepare('SELECT previous_ref FROM items WHERE cho_uri = ? LIMIT 1');
    this.hasNext = db.prepare('SELECT id FROM items WHERE previous_ref = ? LIMIT 1');
  }

  getChildren(id: string, offset: number, rows: number): ChildPage | undefined {
    const parent = this.parentUri.get(id);
    if (!parent) return undefined;
    // Children name their parent by its ProvidedCHO URI (dcterms:isPartOf); an item without one has none.
    if (parent.cho_uri === null) return { total: 0, nodes: [] };
    const all = this.siblings.all(parent.cho_uri);
    const positions = this.positionsOf(all);
    const ordered: Ordered[] = all.map((row, i) => {
      const position = positions[i]!;
      if (position === null) return { row, position, rank: 2, value: 0 };
      return NUMERIC.test(position) ? { row, position, rank: 0, value: Number(position) } : { row, position, rank: 1, value: 0 };
    });
    ordered.sort(compare);
    const nodes = ordered.slice(offset, offset + rows).map(({ row, position }): ChildNode => {
      const childCount = row.cho_uri === null ? 0 : this.childCount.get(row.cho_uri)!.n;
      return {
        id: row.id,
        parent: id,
        label: row.label,
        type: row.hierarchy_type ?? '',
        position: position ?? '-1',
        leaf: childCount === 0,
        aggregationEntity: row.aggregation_entity === 1,
        childCount,
      };
    });
    return { total: all.length, nodes };
  }

  /** Each row's position as `parents` shows it (SqliteItems.sequencePosition), null when it has none. */
  private positionsOf(rows: readonly SiblingRow[]): Array<string | null> {
    const byUri = new Map<string, SiblingRow>();
    const named = new Set<string>();
    for (const row of rows) {
      if (row.cho_uri !== null && !byUri.has(row.cho_uri)) byUri.set(row.cho_uri, row);
      if (row.previous_ref !== null) named.add(row.previous_ref);
    }
    const lookup = (uri: string): { previous_ref: string | null } | undefined => byUri.get(uri) ?? this.previousOf.get(uri);
    // uri -> how many items a walk visits from the item at uri back to the start of its sequence.
    const chain = new Map<string, number>();
    return rows.map((row) => {
      if (row.position !== null) return row.position;
      if (row.previous_ref === null) {
        const first = row.cho_uri !== null && (named.has(row.cho_uri) || this.hasNext.get(row.cho_uri) !== undefined);
        return first ? '1' : null;
      }
      return String(1 + this.chainLength(row, lookup, chain));
    });
  }

  /**
   * How many items lie before `row` in its sequence, counting a named item
   * that is not in the store (it exists at the source), as the walk of
   * SqliteItems.sequencePosition counts them. A loop, or a chain longer than
   * MAX_SEQUENCE, is walked as that method walks it, without memo.
   */
  private chainLength(
    row: SiblingRow,
    lookup: (uri: string) => { previous_ref: string | null } | undefined,
    chain: Map<string, number>,
  ): number {
    const stack: string[] = [];
    const seen = new Set<string>([row.cho_uri ?? row.id]);
    let uri: string | null = row.previous_ref;
    let base = 0;
    while (uri !== null) {
      const known = chain.get(uri);
      if (known !== undefined) {
        base = known;
        break;
      }
      if (seen.has(uri) || stack.length >= MAX_SEQUENCE - 1) return this.walk(row, lookup);
      seen.add(uri);
      stack.push(uri);
      uri = lookup(uri)?.previous_ref ?? null;
    }
    for (let i = stack.length - 1; i >= 0; i--) chain.set(stack[i]!, ++base);
    return base;
  }

  /** The walk of SqliteItems.sequencePosition, less one (the item itself). */
  private walk(row: SiblingRow, lookup: (uri: string) => { previous_ref: string | null } | undefined): number {
    const seen = new Set<string>([row.cho_uri ?? row.id]);
    let position = 1;
    let previous: string | null = row.previous_ref;
    while (previous !== null && !seen.has(previous) && position < MAX_SEQUENCE) {
      seen.add(previous);
      const before = lookup(previous);
      position++;
      if (!before) break;
      previous = before.previous_ref;
    }
    return position - 1;
  }
}
