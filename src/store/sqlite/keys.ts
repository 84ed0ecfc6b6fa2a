/**
 * API keys on SQLite. Only the SHA-256 hash of a key is stored
 * (src/http/apiKeys.ts makes and hashes keys); the key itself never is.
 */
import type { Database, Statement } from 'better-sqlite3';
import { UsageError } from '../../errors.js';
import type { ApiKeyRecord, KeyStore } from '../Store.js';
import type { Sync } from './sync.js';

interface KeyRow {
  name: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

const date = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));

export class SqliteKeys implements Sync<KeyStore> {
  private readonly insert: Statement;
  private readonly list: Statement<[], KeyRow>;
  private readonly revoke: Statement;
  private readonly find: Statement<[string], { name: string; keyHash: string }>;
  private readonly active: Statement<[], string>;
  private readonly touch: Statement;
  private readonly byName: Statement<[string], KeyRow>;

  /** `onChanged`: a key was created or revoked, so remembered lookups are stale. */
  constructor(
    private readonly db: Database,
    private readonly onChanged: () => void = () => {},
  ) {
    this.insert = db.prepare('INSERT INTO api_keys (name, key_hash, created_at) VALUES (?, ?, ?)');
    this.list = db.prepare('SELECT name, created_at, last_used_at, revoked_at FROM api_keys ORDER BY created_at, name');
    this.revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL');
    this.find = db.prepare('SELECT name, key_hash AS keyHash FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL');
    this.active = db.prepare<[], string>('SELECT key_hash FROM api_keys WHERE revoked_at IS NULL').pluck();
    this.touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE name = ?');
    this.byName = db.prepare('SELECT name, created_at, last_used_at, revoked_at FROM api_keys WHERE name = ?');
  }

  createKey(name: string, keyHash: string): void {
    if (this.byName.get(name)) {
      throw new UsageError(`A key named '${name}' exists already (revoked keys keep their name). Choose another name.`);
    }
    this.insert.run(name, keyHash, Date.now());
    this.onChanged();
  }

  listKeys(): ApiKeyRecord[] {
    return this.list.all().map((r) => ({
      name: r.name,
      createdAt: new Date(r.created_at),
      lastUsedAt: date(r.last_used_at),
      revokedAt: date(r.revoked_at),
    }));
  }

  revokeKey(name: string): boolean {
    const revoked = this.revoke.run(Date.now(), name).changes > 0;
    if (revoked) this.onChanged();
    return revoked;
  }

  findActiveKey(keyHash: string): { name: string; keyHash: string } | undefined {
    return this.find.get(keyHash);
  }

  activeKeyHashes(): string[] {
    return this.active.all();
  }

  /**
   * Best effort, never waiting: this runs inside a request, and an ingest may
   * hold the write lock for seconds (a batch of persons). A busy database skips
   * the write; the key's next use a minute later records it.
   */
  markKeyUsed(name: string, at: Date): void {
    const wait = this.db.pragma('busy_timeout', { simple: true }) as number;
    this.db.pragma('busy_timeout = 0');
    try {
      this.touch.run(at.getTime(), name);
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    } finally {
      this.db.pragma(`busy_timeout = ${wait}`);
    }
  }
}
