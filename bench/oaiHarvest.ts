/**
 * A full OAI-PMH harvest of the bench store (docs/oai-pmh.md): ListRecords in `edm` from
 * the first page to the last, as a harvester runs it (one request at a time, each after
 * the previous answer), over loopback. Records per second, whether every item came exactly
 * once, and the server's resident memory (all its processes) before and after: a harvest
 * reads a page at a time from the store, so the memory stays where it was.
 */
import { readFileSync } from 'node:fs';

export interface OaiHarvestResult {
  /** Items in the store when the harvest began: each is to come exactly once. */
  expected: number;
  records: number;
  distinct: number;
  pages: number;
  seconds: number;
  rssBeforeMb: number;
  rssAfterMb: number;
}

/** The current resident memory of a process and its children, in MB. */
export function residentMb(pid: number): number {
  const rss = (p: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  let children: number[];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    children = [];
  }
  return Math.round([pid, ...children].reduce((sum, p) => sum + rss(p), 0));
}

export async function oaiFullHarvest(base: string, serverPid: number, expected: number): Promise<OaiHarvestResult> {
  const rssBeforeMb = residentMb(serverPid);
  const ids = new Set<string>();
  let records = 0;
  let pages = 0;
  const started = performance.now();
  let query = 'verb=ListRecords&metadataPrefix=edm';
  for (;;) {
    const r = await fetch(`${base}/oai?${query}`);
    if (r.status !== 200) throw new Error(`OAI-PMH page ${pages + 1}: HTTP ${r.status}`);
    const body = await r.text();
    pages++;
    for (const m of body.matchAll(/<header(?: status="deleted")?><identifier>([^<]+)<\/identifier>/g)) {
      records++;
      // A copy: a match is a slice of the page and would keep the whole page alive (V8's sliced
      // strings); a harvest of 1.2 M records kept every page, more than the bench's heap.
      ids.add(Buffer.from(m[1]!).toString());
    }
    const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(body)?.[1];
    if (token === undefined) break;
    query = `verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`;
  }
  const seconds = (performance.now() - started) / 1000;
  return { expected, records, distinct: ids.size, pages, seconds, rssBeforeMb, rssAfterMb: residentMb(serverPid) };
}
