/**
 * Copies a store into an empty one of either backend (docs/deployment.md "heritage-api copy"), table by table
 * in key order, then checks the target: per table the number of rows and a digest of them
 * (copyTables.ts TableDigest), the source's computed while it was read, the target's read
 * back afterwards.
 */
import { UsageError } from '../../errors.js';
import { COPY_TABLES, keyOf, TableDigest, type CopyEndpoint } from './copyTables.js';

export interface TableCheck {
  table: string;
  sourceRows: number;
  targetRows: number;
  sourceDigest: string;
  targetDigest: string;
}

export interface CopyProgress {
  /** Rows copied so far, and of how many. */
  done: number;
  total: number;
}

/** Rows per read and per write transaction. */
const BATCH = 500;

export async function copyStore(
  from: CopyEndpoint,
  to: CopyEndpoint,
  onProgress: (p: CopyProgress) => void = () => {},
): Promise<TableCheck[]> {
  const counts = new Map<string, number>();
  for (const t of COPY_TABLES) {
    const n = await to.count(t);
    if (n > 0)
      throw new UsageError(
        `The target store ${to.location} is not empty (${n} rows in ${t.name}): copy into a new store, or empty this one first.`,
      );
    counts.set(t.name, await from.count(t));
  }
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  let done = 0;
  onProgress({ done, total });
  const sources = new Map<string, TableDigest>();
  for (const t of COPY_TABLES) {
    const digest = new TableDigest();
    let after = null;
    for (;;) {
      const rows = await from.read(t, after, BATCH);
      if (rows.length === 0) break;
      for (const row of rows) digest.add(row);
      await to.write(t, rows);
      done += rows.length;
      onProgress({ done, total });
      after = keyOf(t, rows[rows.length - 1]!);
    }
    sources.set(t.name, digest);
  }
  await to.finish();
  const checks: TableCheck[] = [];
  for (const t of COPY_TABLES) {
    const digest = new TableDigest();
    let after = null;
    for (;;) {
      const rows = await to.read(t, after, BATCH);
      if (rows.length === 0) break;
      for (const row of rows) digest.add(row);
      after = keyOf(t, rows[rows.length - 1]!);
    }
    const source = sources.get(t.name)!;
    checks.push({
      table: t.name,
      sourceRows: source.rows,
      targetRows: digest.rows,
      sourceDigest: source.hex(),
      targetDigest: digest.hex(),
    });
  }
  return checks;
}
