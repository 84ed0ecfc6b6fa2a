/**
 * The bench's ceiling (bench/ceiling.ts): the bare server answers the bytes it was given, in
 * one process and in two, and relayed through the hops of a search (HTTP process, primary,
 * thread and back) the same bytes, status and headers; a path it was not given is a 404.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

const dir = mkdtempSync(join(tmpdir(), 'ceiling-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const body = Buffer.from(JSON.stringify({ numberOfResults: 3, results: ['ä', 'b'] }));
const spec = join(dir, 'spec.json');
writeFileSync(
  spec,
  JSON.stringify({
    responses: { '/search?query=a': { status: 200, headers: { 'content-type': 'application/json' }, body: body.toString('base64') } },
  }),
);

async function ask(args: string[]): Promise<Array<{ status: number; type: string | null; body: Buffer }>> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/ceiling.ts', spec, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
    const out = [];
    for (const path of ['/search?query=a', '/search?query=a', '/other']) {
      const r = await fetch(`http://127.0.0.1:${port}${path}`);
      out.push({ status: r.status, type: r.headers.get('content-type'), body: Buffer.from(await r.arrayBuffer()) });
    }
    return out;
  } finally {
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await gone;
  }
}

describe('the bench ceiling', () => {
  // a relay of one process has no primary to relay through: answered in place
  for (const args of [[], ['2'], ['2', 'relay'], ['1', 'relay']]) {
    it(`answers the bytes it was given (${args.join(' ') || '1 process'})`, async () => {
      const [first, second, other] = await ask(args);
      for (const r of [first!, second!]) assert.deepEqual(r, { status: 200, type: 'application/json', body });
      assert.equal(other!.status, 404);
    });
  }
});
