/**
 * One writer at a time in an index directory (docs/search-engine.md "Persistence": "Writers take turns").
 *
 * A server writes a generation now and then, and `heritage-api index rebuild` writes one
 * while that server runs (docs/cli.md); two servers may also be pointed at one directory by
 * mistake. Each writer numbers its generation after the newest it sees and prunes what is
 * older than the two newest, temporary files included: two at once could take the same
 * number, or one could prune the other's files while they are being written. So a writer
 * holds `write.lock` while it writes: a file made with O_EXCL that names its process and host.
 *
 * A lock whose process is gone (killed while writing) is taken over when it names this host
 * and a process that no longer exists; a lock of another host cannot be checked and is
 * waited for, up to `LOCK_WAIT_MS`, after which the write fails with what to do. Writers of
 * one process queue in memory first, so the file is only ever contended between processes.
 */
import { hostname } from 'node:os';
import { open, readFile, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';

export const LOCK_FILE = 'write.lock';
/** How long a writer waits for another before it gives up. */
const LOCK_WAIT_MS = 10 * 60_000;
const FIRST_PAUSE_MS = 10;
const LONGEST_PAUSE_MS = 200;

/** Writers of this process, per directory: each waits for the one before it. */
const queues = new Map<string, Promise<unknown>>();

/** Whether a process of this host with that id exists (signal 0 checks without sending). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, under another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holder a lock file names, or undefined if it cannot be read (being written or removed). */
async function holderOf(path: string): Promise<{ pid: number; host: string } | undefined> {
  try {
    const [pid, ...host] = (await readFile(path, 'utf8')).trim().split(' ');
    const n = Number(pid);
    return Number.isInteger(n) && n > 0 ? { pid: n, host: host.join(' ') } : undefined;
  } catch {
    return undefined;
  }
}

async function acquire(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, LOCK_FILE);
  const me = `${process.pid} ${hostname()}`;
  const until = Date.now() + LOCK_WAIT_MS;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      const fh = await open(path, 'wx');
      try {
        await fh.writeFile(`${me}\n`);
      } finally {
        await fh.close();
      }
      return () => rm(path, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = await holderOf(path);
    // This process's writers queue in memory, so a lock naming it was left by an earlier
    // process of the same id (a container restarted after a kill); one naming a process gone
    // was left by a writer that was killed. Either way nobody writes: ours to remove (and race for).
    if (holder !== undefined && holder.host === hostname() && (holder.pid === process.pid || !alive(holder.pid))) {
      await rm(path, { force: true });
      continue;
    }
    if (Date.now() > until) {
      const who = holder === undefined ? 'another writer' : `process ${holder.pid} on ${holder.host}`;
      throw new Error(
        `The search index directory ${dir} is locked by ${who} (${LOCK_FILE}) for over ${LOCK_WAIT_MS / 60_000} minutes: if no heritage-api writes there any more, remove ${path}.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** Runs `write` while holding the directory's write lock (`dir` must exist). */
export async function withIndexWriteLock<T>(dir: string, write: () => Promise<T>): Promise<T> {
  // One queue per directory however it is named (relative, through a link).
  const key = await realpath(dir);
  const before = queues.get(key) ?? Promise.resolve();
  const run = before.then(async () => {
    const release = await acquire(dir);
    try {
      return await write();
    } finally {
      await release();
    }
  });
  const settled = run.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return run;
}
