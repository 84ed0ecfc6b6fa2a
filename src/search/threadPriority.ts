/**
 * The search threads' share of the cores (docs/configuration.md "Searches on worker
 * threads"): a search thread lowers its own scheduling priority, so that lookups (the HTTP
 * workers, the primary's event loop) get a core first whenever both want one, and searches
 * take what is left. On Linux the nice value is an attribute of each thread, not of the
 * process (setpriority(2), NOTES: with NPTL, PRIO_PROCESS with who 0 names the calling
 * thread), so a worker thread lowers itself alone. Elsewhere it would lower the whole
 * process, so there it is left as it is.
 *
 * The watchdog (./searchPool.ts) must then tell a starved thread (runnable, waiting for a
 * core) from a stuck one: it reads the thread's state and CPU time from /proc (proc(5):
 * /proc/PID/task/TID/stat field 3, the state; /proc/PID/task/TID/schedstat field 1, the
 * nanoseconds spent on a core).
 */
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

const LINUX = process.platform === 'linux';

/** Lowers the calling thread to `niceness` (0–19; 0 leaves it as it is). Returns whether it did. */
export function lowerThisThread(niceness: number): boolean {
  if (!LINUX || niceness <= 0) return false;
  try {
    setPriority(niceness);
    return true;
  } catch {
    return false; // A sandbox that refuses setpriority(2): the thread runs at the process's priority.
  }
}

/** The calling thread's id in the kernel (its /proc/self/task entry), where there is /proc. */
export function thisThreadId(): number | undefined {
  if (!LINUX) return undefined;
  try {
    const tid = Number.parseInt(readFileSync('/proc/thread-self/stat', 'utf8'), 10);
    return Number.isSafeInteger(tid) ? tid : undefined;
  } catch {
    return undefined;
  }
}

export interface ThreadSample {
  /** Runnable: running or waiting for a core (state R), as opposed to asleep or blocked. */
  runnable: boolean;
  /** Time spent on a core since the thread started, in ms. */
  cpuMs: number;
  /** Its nice value (field 19 of stat). */
  niceness: number;
}

/** What the kernel says of thread `tid` of this process now; undefined when it is gone or there is no /proc. */
export function sampleThread(tid: number | undefined): ThreadSample | undefined {
  if (tid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // The name (field 2) is in parentheses and may hold spaces: fields count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const schedstat = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8');
    return { runnable: fields[0] === 'R', cpuMs: Number(schedstat.split(' ')[0]) / 1e6, niceness: Number(fields[16]) };
  } catch {
    return undefined;
  }
}

/**
 * Whether a thread still busy with a search whose budget ran out at `atDeadline` is stuck
 * (to be terminated) rather than starved: stuck if it is asleep or blocked (one long
 * statement, a lock), or if it has had `graceMs` on a core since the deadline without
 * stopping; starved (left to stop by itself at its next look at the deadline) if it is
 * runnable and has had less. Without /proc (`now` undefined), the grace is wall time alone.
 */
export function stuck(atDeadline: ThreadSample | undefined, now: ThreadSample | undefined, graceMs: number): boolean {
  if (atDeadline === undefined || now === undefined) return true;
  return !now.runnable || now.cpuMs - atDeadline.cpuMs >= graceMs;
}
