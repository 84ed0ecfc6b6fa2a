/**
 * Spec 4 / 5.3: the operations are offered over HTTP and HTTPS; with a
 * certificate and key configured, both listen at once (`heritage-api serve`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { request } from 'node:https';
import { join } from 'node:path';
import { generateApiKey, hashApiKey } from '../../src/apiKeys.js';
import { startServer } from '../../src/cli/commands/serve.js';
import { loadConfig } from '../../src/config.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { BACKENDS } from '../helpers/backends.js';
import { CHAPTER_ID, CORTEX_DIR } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';

function httpsGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // The test's certificate is self-signed.
    const req = request(url, { headers, rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject).end();
  });
}

for (const backend of BACKENDS) {
  test(`[${backend.name}] HTTP and HTTPS at once, answering the same`, async () => {
    const dir = tempDir('tls');
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', key, '-out', cert],
      { stdio: 'ignore' },
    );
    const opened = await backend.open();
    await ingestItems(opened.store, [CORTEX_DIR], { batchSize: 10 });
    const apiKey = generateApiKey();
    await opened.store.createKey('tls', hashApiKey(apiKey));
    const config = loadConfig({
      flags: { store: backend.config(opened.location), server: { port: 0, httpsPort: 0, tlsCert: cert, tlsKey: key } },
    });
    const running = await startServer(config, opened.store, false);
    try {
      assert.match(running.httpUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.match(running.httpsUrl ?? '', /^https:\/\/127\.0\.0\.1:\d+$/);
      const headers = { accept: 'application/json', authorization: `OAuth oauth_consumer_key="${apiKey}"` };
      const plain = await fetch(`${running.httpUrl}/items/${CHAPTER_ID}/parents`, { headers });
      const secure = await httpsGet(`${running.httpsUrl}/items/${CHAPTER_ID}/parents`, headers);
      assert.equal(plain.status, 200);
      assert.equal(secure.status, 200);
      assert.equal(secure.body, await plain.text());
      const denied = await httpsGet(`${running.httpsUrl}/items/${CHAPTER_ID}/parents`, { accept: 'application/json' });
      assert.equal(denied.status, 401);
    } finally {
      await running.close();
      await opened.dispose();
    }
  });
}
