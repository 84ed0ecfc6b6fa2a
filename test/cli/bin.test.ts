/**
 * `heritage-api` as installed by `npm link` or `npm install -g .` (README,
 * docs/cli.md): the compiled bin, started through a symlink in a bin
 * directory, from a working directory outside the package (docs/cli.md
 * "Installing the command"). Built here, into a copy of the package layout, so the test
 * neither needs nor touches the checkout's dist/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { collect } from '../helpers/cli.js';
import { CORTEX_DIR } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };

test('the built bin runs through a symlink from any directory', { timeout: 300_000 }, async () => {
  const base = tempDir('bin');
  // The package as npm links it: package.json, the compiled dist/, fixtures/ and the dependencies.
  const pkg = join(base, 'lib', 'node_modules', 'heritage-api');
  mkdirSync(pkg, { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(ROOT, 'fixtures'), join(pkg, 'fixtures'));
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
  await promisify(execFile)(process.execPath, [
    join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-p',
    join(ROOT, 'tsconfig.build.json'),
    '--outDir',
    join(pkg, 'dist'),
  ]);

  // npm makes the bin executable and links it into the prefix's bin directory.
  const target = join(pkg, PACKAGE.bin['heritage-api']!);
  assert.equal(readFileSync(target, 'utf8').split('\n')[0], '#!/usr/bin/env node', 'the bin starts with a shebang');
  chmodSync(target, 0o755);
  const binDir = join(base, 'bin');
  mkdirSync(binDir);
  symlinkSync(target, join(binDir, 'heritage-api'));

  const elsewhere = tempDir('cwd');
  const env = { PATH: `${binDir}:${process.env.PATH}` };
  const run = (args: string[]) => collect(spawn('heritage-api', args, { cwd: elsewhere, env, stdio: ['pipe', 'pipe', 'pipe'] }));

  assert.deepEqual(await run(['--version']), { code: 0, signal: null, stdout: `${PACKAGE.version}\n`, stderr: '' });
  // A load (parser workers found next to the compiled code), into a store relative to the working directory.
  const load = await run(['--db', 'here.db', 'ingest', 'items', CORTEX_DIR]);
  assert.equal(load.code, 0, load.stderr);
  assert.match(load.stdout, /^items: 5 records from 5 files in \d+\.\d s \(\d+\/s\): 5 new, 0 updated, 0 unchanged, 0 skipped\.\n/);
  assert.equal(existsSync(join(elsewhere, 'here.db')), true);
  const list = await run(['--db', 'here.db', 'items', 'list']);
  assert.deepEqual(list, {
    code: 0,
    signal: null,
    stdout: [
      '222NZKK63TNRLC2VETRV722VKBDSUVGL',
      '23MBRVVDUHBFZNDCTK4SQM7KROKGVGNF',
      '4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22',
      'NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR',
      'TNPFDKO2VDGBZ72RWC6RKDNZYZQZP3XK',
      '',
    ].join('\n'),
    stderr: '',
  });

  // The demo finds its records in the package, not in the working directory.
  const demo = spawn('heritage-api', ['--db', 'demo.db', '--log-level', 'warn', 'demo', '--port', '0'], {
    cwd: elsewhere,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ended = collect(demo);
  let out = '';
  await new Promise<void>((resolve, reject) => {
    demo.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Stop with Ctrl-C.')) resolve();
    });
    void ended.then((r) => reject(new Error(`demo exited with ${r.code}: ${r.stderr}`)));
  });
  demo.kill('SIGINT');
  const stopped = await ended;
  assert.equal(stopped.code, 0, stopped.stderr);
  // (Records the fixtures hold twice are duplicates: docs/decisions.md "Duplicates".)
  assert.match(
    stopped.stderr,
    /^Loaded demo items: [1-9]\d* new, \d+ updated, 0 unchanged, 0 skipped\.\nLoaded demo persons: [1-9]\d* new, 0 updated, 0 unchanged, 0 skipped\.\nheritage-api listening on http:\/\/127\.0\.0\.1:\d+ \(\d+ items\)\n$/,
  );
});
