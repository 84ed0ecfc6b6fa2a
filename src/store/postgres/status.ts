/**
 * What GET /status reports of the store's freshness (docs/api.md "GET /version and GET /status"), on PostgreSQL:
 * the last load run of each kind, and every harvested source's state.
 */
import type pg from 'pg';
import type { HarvestStatus, LoadRun } from '../Store.js';

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

export class PgStatus {
  constructor(private readonly pool: pg.Pool) {}

  async recordLoad(run: LoadRun): Promise<void> {
    await this.pool.query(
      `INSERT INTO load_runs (kind, finished_at, records, inserted, updated, unchanged, deleted, problems)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (kind) DO UPDATE SET
         finished_at = excluded.finished_at, records = excluded.records, inserted = excluded.inserted,
         updated = excluded.updated, unchanged = excluded.unchanged, deleted = excluded.deleted, problems = excluded.problems`,
      [run.kind, run.finishedAt.getTime(), run.records, run.inserted, run.updated, run.unchanged, run.deleted, run.problems],
    );
  }

  async listLoads(): Promise<LoadRun[]> {
    const { rows } = await this.pool.query<LoadRow>(
      'SELECT kind, finished_at, records, inserted, updated, unchanged, deleted, problems FROM load_runs ORDER BY kind',
    );
    return rows.map((r) => ({
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

  async listHarvests(): Promise<HarvestStatus[]> {
    const { rows } = await this.pool.query<HarvestRow>(
      'SELECT source, high_water, resumption_token, run_from, run_started, updated_at FROM harvest_state ORDER BY source',
    );
    return rows.map((r) => ({
      source: r.source,
      state: { highWater: r.high_water, resumptionToken: r.resumption_token, runFrom: r.run_from, runStarted: r.run_started },
      updatedAt: new Date(r.updated_at),
    }));
  }
}
