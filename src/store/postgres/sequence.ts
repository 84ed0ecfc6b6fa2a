/**
 * Positions from edm:isNextInSequence (docs/decisions.md "Hierarchy") on PostgreSQL, as
 * src/store/sqlite/items.ts sequencePosition works them out: the position of an item
 * without ddb:hierarchyPosition that takes part in a sequence is 1 + the number of
 * siblings before it; null when it is in no sequence.
 */
import type { Queryable } from './db.js';

/** A sequence longer than this is treated as broken data. */
export const MAX_SEQUENCE = 100_000;

export interface SequenceRow {
  id: string;
  cho_uri: string | null;
  position: string | null;
  previous_ref: string | null;
}

/** The previous_ref of the item whose ProvidedCHO URI is `uri`; undefined when no item has it. */
export async function previousOf(db: Queryable, uri: string): Promise<{ previous_ref: string | null } | undefined> {
  return (await db.query<{ previous_ref: string | null }>('SELECT previous_ref FROM items WHERE cho_uri = $1 ORDER BY num LIMIT 1', [uri]))
    .rows[0];
}

/** Whether an item names `uri` as the one before it. */
export async function hasNext(db: Queryable, uri: string): Promise<boolean> {
  return ((await db.query('SELECT 1 FROM items WHERE previous_ref = $1 LIMIT 1', [uri])).rowCount ?? 0) > 0;
}

export async function sequencePosition(db: Queryable, row: SequenceRow): Promise<string | null> {
  if (row.position !== null) return row.position;
  if (row.previous_ref === null) return row.cho_uri !== null && (await hasNext(db, row.cho_uri)) ? '1' : null;
  const seen = new Set<string>([row.cho_uri ?? row.id]);
  let position = 1;
  let previous: string | null = row.previous_ref;
  while (previous !== null && !seen.has(previous) && position < MAX_SEQUENCE) {
    seen.add(previous);
    const before = await previousOf(db, previous);
    // A sibling not in the store still counts: it is named, so it exists at the source.
    position++;
    if (!before) break;
    previous = before.previous_ref;
  }
  return String(position);
}
