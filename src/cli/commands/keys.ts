/**
 * `heritage-api keys create|list|revoke`. A new key is printed once and only
 * its hash is stored.
 */
import { generateApiKey, hashApiKey } from '../../apiKeys.js';
import type { Store } from '../../store/Store.js';
import { EXIT, type CliIo } from '../io.js';

const KEY_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export async function createKey(store: Store, name: string, io: CliIo): Promise<number> {
  if (!KEY_NAME.test(name)) {
    io.err(`The key name '${name}' is not valid: use 1 to 64 letters, digits, '.', '_', '@', '-'.`);
    return EXIT.failed;
  }
  const key = generateApiKey();
  await store.createKey(name, hashApiKey(key));
  io.out(key);
  io.err(`Created key '${name}'. It is shown only this once: store it now.`);
  return EXIT.ok;
}

export async function listKeys(store: Store, io: CliIo): Promise<number> {
  const keys = await store.listKeys();
  if (keys.length === 0) {
    io.out('No keys. Create one with: heritage-api keys create --name NAME');
    return EXIT.ok;
  }
  const iso = (d: Date | null) => (d ? d.toISOString().replace(/\.\d{3}Z$/, 'Z') : '-');
  const rows = keys.map((k) => [k.name, iso(k.createdAt), iso(k.lastUsedAt), k.revokedAt ? `revoked ${iso(k.revokedAt)}` : 'active']);
  const header = ['NAME', 'CREATED', 'LAST USED', 'STATUS'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const r of [header, ...rows])
    io.out(
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
  return EXIT.ok;
}

export async function revokeKey(store: Store, name: string, io: CliIo): Promise<number> {
  if (!(await store.revokeKey(name))) {
    io.err(`No active key named '${name}'. See: heritage-api keys list`);
    return EXIT.failed;
  }
  io.out(`Revoked key '${name}'.`);
  return EXIT.ok;
}
