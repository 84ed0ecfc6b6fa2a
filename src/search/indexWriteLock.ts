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
 * and a process that no longer exists, or whose id another process has taken since (ids are
 * reused: where the kernel keeps 32,768 of them, a busy machine wraps around within minutes, so
 * the lock also names when its process started, /proc/PID/stat field 22, and a process of that
 * id that started otherwise is another one); a lock of another host cannot be checked and is
 * waited for, up to `LOCK_WAIT_MS`, after which the write fails with what to do. Writers of
 * one process queue in memory first, so the file is only ever contended between processes.
 */
import { hostname } from 'node:os';
import { readFileSync } from 'node:fs';
import { open, readFile, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';

export const LOCK_FILE = 'write.lock';
/** How long a writer waits for another before it gives up. */
const LOCK_WAIT_MS = 10 * 60_000;
const FIRST_PAUSE_MS = 10;
const LONGEST_PAUSE_MS = 200;

/** Writers of this process, per directory: each waits for the one before it. */
const queues = new Map<string, Promise<unknown>>();

/**
 * When the process `pid` of this host started (clock ticks since boot, /proc/PID/stat field
 * 22, proc(5)), or undefined where that cannot be read (no /proc, no such process).
 */
export function startOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields from the third on follow the name in parentheses, which may hold spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * Whether the process of this host that took the lock still exists: a process with its id
 * (signal 0 checks without sending) that started when it did, if the lock says when.
 */
function alive(pid: number, started: string | undefined): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    // EPERM: it exists, under another user.
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = started === undefined ? undefined : startOf(pid);
  return now === undefined || now === started;
}

interface Holder {
  pid: number;
  host: string;
  /** When it started (startOf), on the lock's second line; absent in a lock written before, or without /proc. */
  started: string | undefined;
}

/** The holder a lock file names, or undefined if it cannot be read (being written or removed). */
async function holderOf(path: string): Promise<Holder | undefined> {
  try {
    const [first = '', second = ''] = (await readFile(path, 'utf8')).split('\n');
    const [pid, ...host] = first.trim().split(' ');
    const n = Number(pid);
    const started = /^\d+$/.test(second.trim()) ? second.trim() : undefined;
    return Number.isInteger(n) && n > 0 ? { pid: n, host: host.join(' '), started } : undefined;
  } catch {
    return undefined;
  }
}

async function acquire(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, LOCK_FILE);
  const started = startOf(process.pid);
  const me = `${process.pid} ${hostname()}${started === undefined ? '' : `\n${started}`}`;
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
    if (holder !== undefined && holder.host === hostname() && (holder.pid === process.pid || !alive(holder.pid, holder.started))) {
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
