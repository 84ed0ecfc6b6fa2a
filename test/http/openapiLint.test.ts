/**
 * The served /openapi.json as tools and generated clients read it: Redocly's CLI
 * (@redocly/cli, its recommended rules) finds no error and no warning in it, with keys
 * required and with anonymous reads; every operation has an operationId, the real DDB
 * API's wherever the README's table of its OpenAPI 6.8 operations maps a route to one;
 * and no description cites a note of the project's own (an issue, docs/decisions.md, a
 * section of the spec) that a reader of the description cannot see.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp } from '../helpers/app.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REDOCLY = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');

interface OpenApi {
  paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
  info: { license?: { name: string } };
  tags?: Array<{ name: string }>;
}

async function served(anonymousRead: boolean): Promise<string> {
  const t = await startTestApp(BACKENDS[0]!, { flags: { auth: { anonymousRead } } });
  try {
    const res = await t.app.inject({ url: '/openapi.json', headers: { accept: 'application/json' } });
    assert.equal(res.statusCode, 200);
    return res.body;
  } finally {
    await t.close();
  }
}

function redocly(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [REDOCLY, ...args],
      // No telemetry and no update check: the test must not reach the network.
      { cwd, timeout: 120_000, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' } },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

test(
  'redocly lint finds no error and no warning in the served /openapi.json, with keys and with anonymous reads',
  { timeout: 300_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'heritage-api-openapi-'));
    try {
      writeFileSync(join(dir, 'keys.json'), await served(false));
      writeFileSync(join(dir, 'anonymous.json'), await served(true));
      for (const file of ['keys.json', 'anonymous.json']) {
        const run = await redocly(['lint', file, '--format', 'json'], dir);
        const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as {
          totals: { errors: number; warnings: number };
          problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
        };
        const problems = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
        assert.deepEqual(problems, [], file);
        assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 }, file);
        assert.equal(run.code, 0, `${file}: ${run.stderr}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

/** The README's table of the operations of the real service's OpenAPI 6.8: operationId → path, for those served. */
function readmeOperations(): Array<{ id: string; path: string }> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('**ddb-openapi-6.8.yml**');
  const table = readme.slice(start, readme.indexOf('**ddb-openapi-2.6.1.yml**', start));
  const rows: Array<{ id: string; path: string }> = [];
  for (const line of table.split('\n')) {
    const cells = /^\| (\w+) \| `GET ([^`]+)` \| (.*) \|$/.exec(line);
    if (!cells || !cells[3]!.startsWith('yes')) continue;
    // `/items/{id}/source/{subcomponent}` | yes: `description`, `record`: served as a path per value, the id on the first.
    const values = /^yes: `(\w+)`(?:, `\w+`)+$/.exec(cells[3]!);
    rows.push({ id: cells[1]!, path: values ? cells[2]!.replace(/\{[^}]+\}$/, values[1]!) : cells[2]! });
  }
  return rows;
}

/** A path with its parameters' names left out: /binary/{uuid} and /binary/{path} are one path. */
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

test("every operation has an operationId, unique, the real service's wherever the README maps a route to one; tags and a licence", async () => {
  const body = await served(false);
  const doc = JSON.parse(body) as OpenApi;
  const ids = new Map<string, string>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      assert.ok(operation.operationId, `${method} ${path} has an operationId`);
      assert.equal(ids.get(operation.operationId), undefined, `${operation.operationId} names one operation`);
      ids.set(operation.operationId, shape(path));
      assert.ok((operation.tags ?? []).length > 0, `${method} ${path} has a tag`);
      for (const tag of operation.tags ?? [])
        assert.ok(
          doc.tags?.some((t) => t.name === tag),
          `tag ${tag} is described`,
        );
    }
  }
  const mapped = readmeOperations();
  assert.equal(mapped.length, 35, 'the README maps 35 served operations of the 6.8 description');
  for (const { id, path } of mapped) assert.equal(ids.get(id), shape(path), `${id} is GET ${path}`);
  assert.deepEqual(doc.info.license, { name: 'MIT', identifier: 'MIT' });
  // No description cites what its reader cannot see.
  for (const pattern of [/issue #?\d/i, /decisions\.md/, /\bspec(?: section)? \d/]) assert.doesNotMatch(body, pattern);
});
