/**
 * Which PostgreSQL server answers reads (docs/deployment.md "Replicas"):
 * the primary (store.url) and its streaming replicas (store.replicaUrls).
 *
 * A background check, unref'd, asks the primary for its WAL position and data_version
 * every PRIMARY_PROBE_MS and each replica for its replay position every REPLICA_PROBE_MS.
 * A replica is in use while it answers, is a standby of our schema, and lags the primary
 * by at most store.maxReplicaLagSeconds; otherwise it is left out until a later check finds
 * it well again. Reads go to ONE server at a time (sticky), not spread per query: a cache
 * keyed on the version of one server must not be filled from another (see epoch below and
 * PostgresStore.ts dataVersion). With no replica in use the primary serves reads.
 *
 * Lag: the primary's WAL positions are sampled with the time each was asked for. A replica
 * that has replayed the newest sample is 0 s behind; else it is as far behind as the newest
 * sample it has replayed is old (an idle primary makes no WAL, so an idle replica that has
 * replayed everything is 0 behind, however old its last transaction). Behind every sample
 * kept, or with the primary unreachable, the replica's own view counts: all it received is
 * replayed (0), else the age of its last replayed transaction.
 */
import type pg from 'pg';
import type { ReplicationState } from '../Store.js';
import { createPool, isUnreachable, redactUrl } from './db.js';
import { SCHEMA_VERSION } from './schema.js';

/** How often the primary is asked for its WAL position and data_version. */
export const PRIMARY_PROBE_MS = 250;
/** How often each replica is asked how far it has replayed. */
export const REPLICA_PROBE_MS = 1000;
/** A probe that takes longer counts as a failure: a hung server must not hold the check. */
const PROBE_TIMEOUT_MS = 2000;
/** WAL samples of the primary kept for lag: beyond this a replica is far over any sane maximum. */
const SAMPLES_KEPT_MS = 120_000;

/** One server: its connections for queries and a one-connection pool for the checks. */
export interface Endpoint {
  /** host:port/database, without user or password: for metrics and messages. */
  readonly name: string;
  readonly pool: pg.Pool;
}

interface ReplicaRow {
  standby: boolean;
  receive: string | null;
  replay: string | null;
  replay_age: number | null;
  schema: number | null;
}

interface ReplicaHealth {
  row: ReplicaRow | undefined;
  lagSeconds: number | undefined;
  inUse: boolean;
  reason: string | undefined;
}

interface Sample {
  lsn: bigint;
  at: number;
}

/** The host:port/database of a postgres:// URL: a metric's label, never the user or password. */
export function serverName(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return redactUrl(url);
  }
}

/** A WAL position ('16/B374D848') as a number of bytes. */
export function parseLsn(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** A replica's query cancelled by the replay of a conflicting change (hot standby): worth one more try. */
export function isRecoveryConflict(e: unknown, server: Endpoint, primary: Endpoint): boolean {
  const code = (e as { code?: unknown } | undefined)?.code;
  return server !== primary && (code === '40001' || code === '40P01');
}

/** A replica's lag, in seconds, from its row and the primary's samples (see the file's comment). */
export function lagSeconds(row: ReplicaRow, primaryUp: boolean, samples: readonly Sample[], now: number): number {
  const replay = row.replay === null ? 0n : parseLsn(row.replay);
  const own = () => (row.receive === null || parseLsn(row.receive) <= replay ? 0 : Math.max(0, row.replay_age ?? 0));
  if (!primaryUp || samples.length === 0) return own();
  if (replay >= samples[samples.length - 1]!.lsn) return 0;
  for (let i = samples.length - 1; i >= 0; i--) {
    if (samples[i]!.lsn <= replay) return Math.max(0, (now - samples[i]!.at) / 1000);
  }
  return Math.max((now - samples[0]!.at) / 1000, row.replay_age ?? 0);
}

export class Replication<S extends Endpoint> {
  private current: S;
  /** Moves whenever reads move to another server: part of every data version (PostgresStore.ts). */
  private epoch = 0;
  private up: boolean;
  /** Moves whenever the primary goes down or comes back. */
  private primaryEpoch = 0;
  private primaryVersion: number | undefined;
  private readonly health = new Map<S, ReplicaHealth>();
  private readonly probes = new Map<S, pg.Pool>();
  private samples: Sample[] = [];
  private timer: NodeJS.Timeout | undefined;
  private ticks = 0;
  /** The checks under way: a check asked for meanwhile waits for them instead of starting another. */
  private checkingPrimary: Promise<void> | undefined;
  private checkingReplicas: Promise<void> | undefined;
  private closed = false;
  /** Nodes that start with the same replicas spread over them: each prefers its own. */
  private readonly preference: number;

  constructor(
    readonly primary: S,
    readonly replicas: readonly S[],
    private readonly maxLagSeconds: number,
    urls: ReadonlyMap<S, string>,
  ) {
    this.current = primary;
    this.up = true;
    this.preference = process.pid;
    for (const s of [primary, ...replicas]) {
      // One connection for the checks, with its own short timeouts: a check never waits on the
      // data pool's queue, and a hung server fails its check instead of holding it.
      const probe = createPool({ url: urls.get(s)!, max: 1, connectTimeoutMs: PROBE_TIMEOUT_MS, queryTimeoutMs: PROBE_TIMEOUT_MS });
      this.probes.set(s, probe);
    }
    for (const r of replicas) this.health.set(r, { row: undefined, lagSeconds: undefined, inUse: false, reason: 'not checked yet' });
  }

  /** Checks every server once (so that a node starts on its replicas), then in the background. */
  async start(): Promise<void> {
    // The primary first: the replicas' first lag is then measured against a position it had before.
    await this.check(false);
    await this.check(true);
    this.timer = setInterval(() => void this.check(this.ticks++ % Math.round(REPLICA_PROBE_MS / PRIMARY_PROBE_MS) === 0), PRIMARY_PROBE_MS);
    this.timer.unref();
  }

  /** The server reads go to now. */
  reader(): S {
    return this.current;
  }

  /** Changes whenever reader() changes. */
  readerEpoch(): number {
    return this.epoch;
  }

  primaryUp(): boolean {
    return this.up;
  }

  /**
   * The primary's part of a data version: its data_version as last polled (every
   * PRIMARY_PROBE_MS), or 'down'; the epoch keeps a state from coming back after a change.
   */
  primaryTag(): string {
    return `p${this.primaryEpoch}:${this.up ? this.primaryVersion : 'down'}`;
  }

  /**
   * Called with a query's error: when it says `server` cannot be reached, that server is
   * left out at once (not at the next check) and true is returned, so that the caller
   * may try the read again on reader().
   */
  unreachable(server: S, e: unknown): boolean {
    if (!isUnreachable(e)) return false;
    if (server === this.primary) this.primaryState(false, undefined);
    else
      this.setHealth(server, {
        row: this.health.get(server)?.row,
        lagSeconds: undefined,
        inUse: false,
        reason: `does not answer (${(e as Error).message})`,
      });
    this.choose();
    return true;
  }

  /**
   * Checks every server now, for a read that found its server gone and no other in use:
   * a replica that came back since its last check (up to REPLICA_PROBE_MS ago) is found
   * at once instead of the read failing. A check under way is waited for, not repeated;
   * each takes at most PROBE_TIMEOUT_MS.
   */
  async recheck(): Promise<void> {
    await this.check(true);
  }

  state(): ReplicationState {
    return {
      primaryReachable: this.up,
      readingFrom: this.current.name,
      readsFromPrimary: this.current === this.primary,
      replicas: this.replicas.map((r) => {
        const h = this.health.get(r)!;
        return { name: r.name, lagSeconds: h.lagSeconds, inUse: h.inUse, reason: h.reason };
      }),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await Promise.all([...this.probes.values()].map((p) => p.end()));
  }

  /**
   * The primary's and the replicas' checks run apart: a replica that hangs (up to its
   * timeout) must not hold the polling of the primary's data_version, which key lookups'
   * caches follow (PostgresStore.ts dataVersion).
   */
  private async check(replicasToo: boolean): Promise<void> {
    if (this.closed) return;
    this.checkingPrimary ??= this.checkPrimary().finally(() => ((this.checkingPrimary = undefined), this.choose()));
    if (replicasToo) {
      this.checkingReplicas ??= Promise.all(this.replicas.map((r) => this.checkReplica(r))).then(
        () => ((this.checkingReplicas = undefined), this.choose()),
      );
    }
    await Promise.all([this.checkingPrimary, replicasToo ? this.checkingReplicas : undefined]);
  }

  private async checkPrimary(): Promise<void> {
    const at = Date.now();
    try {
      const { rows } = await this.probes
        .get(this.primary)!
        .query<{ lsn: string; version: number }>('SELECT pg_current_wal_lsn()::text AS lsn, (SELECT version FROM data_version) AS version');
      const lsn = parseLsn(rows[0]!.lsn);
      const last = this.samples[this.samples.length - 1];
      // A position already sampled keeps its first time: that is when the primary had it.
      if (last === undefined || lsn > last.lsn) this.samples.push({ lsn, at });
      while (this.samples.length > 1 && this.samples[0]!.at < at - SAMPLES_KEPT_MS) this.samples.shift();
      this.primaryState(true, rows[0]!.version);
    } catch {
      this.primaryState(false, undefined);
    }
  }

  private primaryState(up: boolean, version: number | undefined): void {
    if (up !== this.up) {
      this.primaryEpoch++;
      this.up = up;
      // Samples from before an outage say nothing of the primary that comes back.
      if (!up) this.samples = [];
      // The lag of each replica is judged otherwise with the primary gone (or back): at once.
      for (const [r, h] of this.health) if (h.row !== undefined) this.judge(r, h.row);
    }
    if (up) this.primaryVersion = version;
  }

  private async checkReplica(replica: S): Promise<void> {
    try {
      const { rows } = await this.probes.get(replica)!.query<ReplicaRow>(
        `SELECT pg_is_in_recovery() AS standby, pg_last_wal_receive_lsn()::text AS receive, pg_last_wal_replay_lsn()::text AS replay,
                extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8 AS replay_age,
                (SELECT max(version) FROM schema_migrations) AS schema`,
      );
      this.judge(replica, rows[0]!);
    } catch (e) {
      this.setHealth(replica, { row: undefined, lagSeconds: undefined, inUse: false, reason: `does not answer (${(e as Error).message})` });
    }
  }

  private judge(replica: S, row: ReplicaRow): void {
    if (!row.standby) {
      this.setHealth(replica, {
        row,
        lagSeconds: undefined,
        inUse: false,
        reason: 'is not a standby (promoted, or not a replica): point store.url at it if it is the primary now',
      });
      return;
    }
    if (row.schema !== SCHEMA_VERSION) {
      this.setHealth(replica, {
        row,
        lagSeconds: undefined,
        inUse: false,
        reason: `has schema ${row.schema}, not ${SCHEMA_VERSION}: not a replica of store.url`,
      });
      return;
    }
    const lag = lagSeconds(row, this.up, this.samples, Date.now());
    const inUse = lag <= this.maxLagSeconds;
    this.setHealth(replica, {
      row,
      lagSeconds: lag,
      inUse,
      reason: inUse ? undefined : `lags ${lag.toFixed(1)} s, more than store.maxReplicaLagSeconds (${this.maxLagSeconds})`,
    });
  }

  private setHealth(replica: S, health: ReplicaHealth): void {
    this.health.set(replica, health);
  }

  /** Stays on a replica in use; else the preferred replica in use; else the primary. */
  private choose(): void {
    const inUse = this.replicas.filter((r) => this.health.get(r)!.inUse);
    let next: S;
    if (this.current !== this.primary && inUse.includes(this.current)) next = this.current;
    else next = inUse.length > 0 ? inUse[this.preference % inUse.length]! : this.primary;
    if (next !== this.current) {
      this.current = next;
      this.epoch++;
    }
  }
}
