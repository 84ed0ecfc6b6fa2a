/**
 * API keys on PostgreSQL. Only the SHA-256 hash of a key is stored
 * (src/http/apiKeys.ts makes and hashes keys); the key itself never is.
 */
import type pg from 'pg';
import { UsageError } from '../../errors.js';
import type { ApiKeyRecord } from '../Store.js';

interface KeyRow {
  name: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

const date = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));

export class PgKeys {
  constructor(private readonly pool: pg.Pool) {}

  async createKey(name: string, keyHash: string): Promise<void> {
    const { rowCount } = await this.pool.query(
      'INSERT INTO api_keys (name, key_hash, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING',
      [name, keyHash, Date.now()],
    );
    if (rowCount === 0) throw new UsageError(`A key named '${name}' exists already (revoked keys keep their name). Choose another name.`);
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    const { rows } = await this.pool.query<KeyRow>(
      'SELECT name, created_at, last_used_at, revoked_at FROM api_keys ORDER BY created_at, name',
    );
    return rows.map((r) => ({
      name: r.name,
      createdAt: new Date(r.created_at),
      lastUsedAt: date(r.last_used_at),
      revokedAt: date(r.revoked_at),
    }));
  }

  async revokeKey(name: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('UPDATE api_keys SET revoked_at = $1 WHERE name = $2 AND revoked_at IS NULL', [
      Date.now(),
      name,
    ]);
    return (rowCount ?? 0) > 0;
  }

  async findActiveKey(keyHash: string): Promise<{ name: string; keyHash: string } | undefined> {
    const { rows } = await this.pool.query<{ name: string; keyHash: string }>(
      'SELECT name, key_hash AS "keyHash" FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [keyHash],
    );
    return rows[0];
  }

  async activeKeyHashes(): Promise<string[]> {
    const { rows } = await this.pool.query<{ key_hash: string }>('SELECT key_hash FROM api_keys WHERE revoked_at IS NULL');
    return rows.map((r) => r.key_hash);
  }

  /**
   * Best effort, never waiting: this runs inside a request. A row another transaction
   * holds (a revoke under way) is skipped; the key's next use records it.
   */
  async markKeyUsed(name: string, at: Date, timeoutMs?: number): Promise<void> {
    await this.pool.query({
      text: 'UPDATE api_keys SET last_used_at = $1 WHERE name = (SELECT name FROM api_keys WHERE name = $2 FOR UPDATE SKIP LOCKED)',
      values: [at.getTime(), name],
      // With replicas, a primary that hangs must not hold the request (PostgresStore.ts).
      ...(timeoutMs === undefined ? {} : { query_timeout: timeoutMs }),
    });
  }
}
