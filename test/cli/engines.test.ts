/**
 * The Node.js the README promises is one every installed package supports: no
 * EBADENGINE warning on `npm install` or `npm ci` with it, for dependencies and
 * devDependencies alike (the tests run the dev tools too). Checked on the lock file,
 * which is what `npm ci` installs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// fastify's own dependency; used here for npm's reading of ranges, without types of its own.
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

interface LockEntry {
  version?: string;
  engines?: Record<string, string> | string[];
}

test('every package in package-lock.json supports the Node.js version the README and package.json promise', () => {
  const readme = readFileSync(`${ROOT}README.md`, 'utf8');
  const promised = /Needs Node\.js (\d+\.\d+) or newer/.exec(readme)?.[1];
  assert.ok(promised !== undefined, 'the README names the Node.js it needs');
  const minimum = `${promised}.0`;
  const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { engines: { node: string } };
  assert.equal(semver.minVersion(pkg.engines.node)?.version, minimum, 'package.json engines.node starts where the README says');

  const lock = JSON.parse(readFileSync(`${ROOT}package-lock.json`, 'utf8')) as { packages: Record<string, LockEntry> };
  const refusing = Object.entries(lock.packages)
    .filter(([path]) => path !== '')
    .flatMap(([path, entry]) => {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return range !== undefined && !semver.satisfies(minimum, range)
        ? [`${path.replace(/^node_modules\//, '')}@${entry.version} wants node ${range}`]
        : [];
    });
  assert.deepEqual(refusing, []);
});
