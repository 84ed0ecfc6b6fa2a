/**
 * The children of an item on PostgreSQL (GET /items/{id}/children; docs/decisions.md "Children"),
 * as src/store/sqlite/children.ts makes them (see there why the order is made here and
 * not by ORDER BY): one indexed read of the siblings, their positions worked out here
 * with the sequence walk memoised over the siblings, then the child counts of the page.
 */
import type pg from 'pg';
import type { ChildNode, ChildPage } from '../../domain/hierarchy.js';
import { hasNext, MAX_SEQUENCE, previousOf } from './sequence.js';

interface SiblingRow {
  id: string;
  cho_uri: string | null;
  label: string;
  hierarchy_type: string | null;
  position: string | null;
  previous_ref: string | null;
  aggregation_entity: boolean;
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

type Lookup = (uri: string) => Promise<{ previous_ref: string | null } | undefined>;

export class PgChildren {
  constructor(private readonly pool: pg.Pool) {}

  async getChildren(id: string, offset: number, rows: number): Promise<ChildPage | undefined> {
    const parent = (await this.pool.query<{ cho_uri: string | null }>('SELECT cho_uri FROM items WHERE id = $1', [id])).rows[0];
    if (!parent) return undefined;
    // Children name their parent by its ProvidedCHO URI (dcterms:isPartOf); an item without one has none.
    if (parent.cho_uri === null) return { total: 0, nodes: [] };
    const all = (
      await this.pool.query<SiblingRow>(
        'SELECT id, cho_uri, label, hierarchy_type, position, previous_ref, aggregation_entity FROM items WHERE parent_ref = $1 ORDER BY num',
        [parent.cho_uri],
      )
    ).rows;
    const positions = await this.positionsOf(all);
    const ordered: Ordered[] = all.map((row, i) => {
      const position = positions[i]!;
      if (position === null) return { row, position, rank: 2, value: 0 };
      return NUMERIC.test(position) ? { row, position, rank: 0, value: Number(position) } : { row, position, rank: 1, value: 0 };
    });
    ordered.sort(compare);
    const nodes: ChildNode[] = [];
    for (const { row, position } of ordered.slice(offset, offset + rows)) {
      const childCount =
        row.cho_uri === null
          ? 0
          : (await this.pool.query<{ n: number }>('SELECT count(*) AS n FROM items WHERE parent_ref = $1', [row.cho_uri])).rows[0]!.n;
      nodes.push({
        id: row.id,
        parent: id,
        label: row.label,
        type: row.hierarchy_type ?? '',
        position: position ?? '-1',
        leaf: childCount === 0,
        aggregationEntity: row.aggregation_entity,
        childCount,
      });
    }
    return { total: all.length, nodes };
  }

  /** Each row's position as `parents` shows it (sequence.ts), null when it has none. */
  private async positionsOf(rows: readonly SiblingRow[]): Promise<Array<string | null>> {
    const byUri = new Map<string, SiblingRow>();
    const named = new Set<string>();
    for (const row of rows) {
      if (row.cho_uri !== null && !byUri.has(row.cho_uri)) byUri.set(row.cho_uri, row);
      if (row.previous_ref !== null) named.add(row.previous_ref);
    }
    const lookup: Lookup = async (uri) => byUri.get(uri) ?? previousOf(this.pool, uri);
    // uri -> how many items a walk visits from the item at uri back to the start of its sequence.
    const chain = new Map<string, number>();
    const out: Array<string | null> = [];
    for (const row of rows) {
      if (row.position !== null) out.push(row.position);
      else if (row.previous_ref === null) {
        const first = row.cho_uri !== null && (named.has(row.cho_uri) || (await hasNext(this.pool, row.cho_uri)));
        out.push(first ? '1' : null);
      } else out.push(String(1 + (await this.chainLength(row, lookup, chain))));
    }
    return out;
  }

  /** How many items lie before `row` in its sequence (src/store/sqlite/children.ts chainLength). */
  private async chainLength(row: SiblingRow, lookup: Lookup, chain: Map<string, number>): Promise<number> {
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
      uri = (await lookup(uri))?.previous_ref ?? null;
    }
    for (let i = stack.length - 1; i >= 0; i--) chain.set(stack[i]!, ++base);
    return base;
  }

  /** The walk of sequence.ts sequencePosition, less one (the item itself). */
  private async walk(row: SiblingRow, lookup: Lookup): Promise<number> {
    const seen = new Set<string>([row.cho_uri ?? row.id]);
    let position = 1;
    let previous: string | null = row.previous_ref;
    while (previous !== null && !seen.has(previous) && position < MAX_SEQUENCE) {
      seen.add(previous);
      const before = await lookup(previous);
      position++;
      if (!before) break;
      previous = before.previous_ref;
    }
    return position - 1;
  }
}
