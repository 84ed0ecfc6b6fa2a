/**
 * Temporary directories that a test file removes when its process ends, passed
 * or failed, so a run of the suite leaves nothing in the temp directory
 * (test/cli/tempClean.test.ts checks it). Each test file runs in a process of
 * its own (node --test), so "when the process ends" is "after the file's tests".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** Each directory on its own: one that cannot be removed is told and does not keep the others. */
function removeAll(): void {
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch (e) {
      process.stderr.write(`test/helpers/tempDir.ts: ${dir} could not be removed: ${(e as Error).message}\n`);
    }
  }
}

/** A fresh directory `heritage-api-<name>-XXXXXX` in the temp directory, removed at exit. */
export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `heritage-api-${name}-`));
  if (made.length === 0) process.once('exit', removeAll);
  made.push(dir);
  return dir;
}
