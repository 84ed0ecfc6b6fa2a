/**
 * Resident memory of this process, all its threads (/proc/self/status): what the scale
 * benchmark (bench/scale.ts) reports per item.
 */
import { readFileSync } from 'node:fs';

export interface Resident {
  /** VmRSS. */
  rss: number;
  /** VmHWM: the peak so far. */
  hwm: number;
  /** RssAnon: heaps and array buffers (shared buffers of one process included). */
  anon: number;
  /** RssFile: mapped files (the node binary, libraries). */
  file: number;
}

export function resident(): Resident {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM'), anon: kb('RssAnon'), file: kb('RssFile') };
}
