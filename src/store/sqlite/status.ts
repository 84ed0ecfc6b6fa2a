/**
 * What GET /status reports of the store's freshness (docs/api.md "GET /version and GET /status"):
 * the last load run of each kind, and every harvested source's state.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { HarvestStatus, LoadRun, StatusStore } from '../Store.js';
import type { Sync } from './sync.js';

interface LoadRow {
  kind: string;
  finished_at: number;
  records: number;
  inserted: number;
  updated: number;
  unchanged: number;
  deleted: number;
  problems: number;
}

interface HarvestRow {
  source: string;
  high_water: string | null;
  resumption_token: string | null;
  run_from: string | null;
  run_started: string | null;
  updated_at: number;
}

export class SqliteStatus implements Sync<StatusStore> {
  private readonly saveLoad: Statement;
  private readonly loads: Statement<[], LoadRow>;
  private readonly harvests: Statement<[], HarvestRow>;

  constructor(db: Database) {
    this.saveLoad = db.prepare(`
      INSERT INTO load_runs (kind, finished_at, records, inserted, updated, unchanged, deleted, problems)
      VALUES (@kind, @finishedAt, @records, @inserted, @updated, @unchanged, @deleted, @problems)
      ON CONFLICT (kind) DO UPDATE SET
        finished_at = excluded.finished_at, records = excluded.records, inserted = excluded.inserted,
        updated = excluded.updated, unchanged = excluded.unchanged, deleted = excluded.deleted, problems = excluded.problems`);
    this.loads = db.prepare(
      'SELECT kind, finished_at, records, inserted, updated, unchanged, deleted, problems FROM load_runs ORDER BY kind',
    );
    this.harvests = db.prepare(
      'SELECT source, high_water, resumption_token, run_from, run_started, updated_at FROM harvest_state ORDER BY source',
    );
  }

  recordLoad(run: LoadRun): void {
    this.saveLoad.run({ ...run, finishedAt: run.finishedAt.getTime() });
  }

  listLoads(): LoadRun[] {
    return this.loads.all().map((r) => ({
      kind: r.kind as LoadRun['kind'],
      finishedAt: new Date(r.finished_at),
      records: r.records,
      inserted: r.inserted,
      updated: r.updated,
      unchanged: r.unchanged,
      deleted: r.deleted,
      problems: r.problems,
    }));
  }

  listHarvests(): HarvestStatus[] {
    return this.harvests.all().map((r) => ({
      source: r.source,
      state: { highWater: r.high_water, resumptionToken: r.resumption_token, runFrom: r.run_from, runStarted: r.run_started },
      updatedAt: new Date(r.updated_at),
    }));
  }
}
