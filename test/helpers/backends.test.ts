/**
 * HERITAGE_TEST_BACKENDS restricts the backend loop of the store and HTTP tests
 * (CONTRIBUTING.md "Tests"): the names it lists, every backend when it is unset, and a
 * clear error for a name that is no backend, so that a typo cannot quietly test nothing.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ALL_BACKENDS, BACKENDS_ENV, selectBackends } from './backends.js';

const names = (value: string | undefined): string[] => selectBackends(value).map((backend) => backend.name);

test('unset or blank: every backend, SQLite first', () => {
  assert.deepEqual(
    ALL_BACKENDS.map((backend) => backend.name),
    ['sqlite', 'postgres'],
  );
  assert.deepEqual(names(undefined), ['sqlite', 'postgres']);
  assert.deepEqual(names(''), ['sqlite', 'postgres']);
  assert.deepEqual(names(' , '), ['sqlite', 'postgres']);
});

test('one name: that backend only', () => {
  assert.deepEqual(names('sqlite'), ['sqlite']);
  assert.deepEqual(names('postgres'), ['postgres']);
  assert.deepEqual(names(' Postgres '), ['postgres']);
});

test('several names: each once, in the loop order', () => {
  assert.deepEqual(names('postgres,sqlite'), ['sqlite', 'postgres']);
  assert.deepEqual(names('sqlite, sqlite'), ['sqlite']);
});

test('an unknown name throws, naming it and the backends', () => {
  assert.throws(() => selectBackends('sqlite,mysql'), {
    message: "HERITAGE_TEST_BACKENDS names 'mysql'; the backends are sqlite, postgres (comma-separated).",
  });
});

test('BACKENDS follows the environment variable of the process', () => {
  const helper = fileURLToPath(new URL('./backends.ts', import.meta.url));
  const script = `const { BACKENDS } = await import(${JSON.stringify(helper)}); console.log('BACKENDS=' + BACKENDS.map((b) => b.name).join(','));`;
  const run = (value: string | undefined): string => {
    // Without the test runner's context the child is a plain script, not a test file reporting to us.
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    if (value === undefined) delete env[BACKENDS_ENV];
    else env[BACKENDS_ENV] = value;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env, encoding: 'utf8' });
    return /^BACKENDS=(.*)$/m.exec(out)?.[1] ?? `no BACKENDS line in: ${out}`;
  };
  assert.equal(run('postgres'), 'postgres');
  assert.equal(run('sqlite'), 'sqlite');
  assert.equal(run(undefined), 'sqlite,postgres');
});
