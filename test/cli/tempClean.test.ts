/**
 * The tests leave nothing in the temp directory: test files that make directories with
 * test/helpers/tempDir.ts, run with a temp directory of their own, leave it empty,
 * whether their tests pass or fail. (`npm test` checks the whole run the same way:
 * test/helpers/withPostgres.ts runs it with its own TMPDIR and fails on what is left.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collect } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TEMP_DIR_HELPER = fileURLToPath(new URL('../helpers/tempDir.ts', import.meta.url));

/** Runs `files` with node --test and a temp directory of their own; what is left in it. */
async function leftBehind(files: string[]): Promise<{ code: number | null; left: string[]; output: string }> {
  const own = mkdtempSync(join(tmpdir(), 'heritage-api-tmpcheck-'));
  try {
    // A test runner's child is told so by NODE_TEST_CONTEXT; this run is a runner of its own.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const run = await collect(
      spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=dot', ...files], {
        cwd: ROOT,
        env: { ...env, TMPDIR: own },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    // tsx's compile cache (tsx-<uid>) is the tool's, not a test's.
    return { code: run.code, left: readdirSync(own).filter((name) => !/^tsx-\d+$/.test(name)), output: run.stdout + run.stderr };
  } finally {
    rmSync(own, { recursive: true, force: true });
  }
}

test('test files that wrote temporary directories leave none', { timeout: 300_000 }, async () => {
  const run = await leftBehind(['test/config/config.test.ts', 'test/ingest/parserPool.test.ts', 'test/cli/keysAndItems.test.ts']);
  assert.equal(run.code, 0, run.output);
  assert.deepEqual(run.left, []);
});

test('a test that fails leaves none either', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'heritage-api-tmpcheck-src-'));
  try {
    const file = join(dir, 'fails.test.ts');
    writeFileSync(
      file,
      `import { test } from 'node:test';\nimport { writeFileSync } from 'node:fs';\nimport { join } from 'node:path';\n` +
        `import { tempDir } from ${JSON.stringify(TEMP_DIR_HELPER)};\n` +
        `test('fails', () => { writeFileSync(join(tempDir('failing'), 'x'), 'x'); throw new Error('on purpose'); });\n`,
    );
    const run = await leftBehind([file]);
    assert.equal(run.code, 1, run.output);
    assert.deepEqual(run.left, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
