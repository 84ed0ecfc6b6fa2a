/**
 * `heritage-api harvest URL`: OAI-PMH ListRecords into the store
 * (docs/cli.md "harvest").
 *
 * Every page is applied in one transaction together with the harvest state
 * (the next resumption token), so a run stopped anywhere (Ctrl-C, network
 * loss, a crash) has lost nothing it loaded and resumes at the page after
 * the last one stored. A completed run saves the responseDate of its first
 * page as the high-water mark; the next run asks `from` there, so it is
 * incremental. OAI-PMH 2.0: 3.5 (flow control), 2.7.1 (selective harvesting
 * by datestamp), 2.5.1 (deleted records).
 */
import { DEFAULT_LIMITS, type RecordLimits } from '../formats/recordLimits.js';
import { readEdmRecords } from './edm/readEdmRecords.js';
import { edmChange, type EdmItemOptions } from './items/edmItems.js';
import { identifyGranularity } from './oai/identify.js';
import { readPackagePage } from './oai/packageRecords.js';
import { listRecordsPages, OaiError, type ClientOptions, type HarvestRequest } from './oai/listRecordsPages.js';
import { type Progress, silentProgress } from './progress.js';
import type { LoadCounts } from './runIngest.js';
import type { HarvestState, ItemChange, Store } from '../store/Store.js';

export interface HarvestOptions {
  baseUrl: string;
  metadataPrefix: string;
  set?: string | undefined;
  /** Overrides the saved high-water mark (and starts a new run). */
  from?: string | undefined;
  edm: EdmItemOptions;
  client: ClientOptions;
  progress?: Progress;
  /** Aborting stops after the page being stored (or aborts the request in flight). */
  signal?: AbortSignal;
  /** What a record may be (ingest.maxRecordBytes). */
  limits?: RecordLimits;
}

export interface HarvestSummary extends LoadCounts {
  source: string;
  /** How the run started: a new run from a date (or from the beginning), or the resumption of a stopped one. */
  start: { kind: 'new'; from: string | null } | { kind: 'resumed'; token: string };
  pages: number;
  /** True when the list was harvested to its end; false when stopped (run again to resume). */
  complete: boolean;
  /** The high-water mark saved for the next run, when complete. */
  highWater: string | null;
}

/** The key of a source's harvest state: one per endpoint, format and set. */
export function harvestSource(baseUrl: string, metadataPrefix: string, set: string | undefined): string {
  return JSON.stringify([baseUrl, metadataPrefix, set ?? null]);
}

/** A responseDate cut to what `from` may carry at this repository's granularity (OAI-PMH 3.3.2). */
function atGranularity(datestamp: string, granularity: string): string {
  const seconds = datestamp.replace(/\.\d+Z$/, 'Z');
  return granularity === 'YYYY-MM-DD' ? seconds.slice(0, 10) : seconds;
}

export async function harvest(store: Store, options: HarvestOptions): Promise<HarvestSummary> {
  const started = Date.now();
  const progress = options.progress ?? silentProgress;
  const client: ClientOptions = { ...options.client, ...(options.signal ? { signal: options.signal } : {}) };
  const source = harvestSource(options.baseUrl, options.metadataPrefix, options.set);
  const saved = await store.getHarvestState(source);
  const resumeToken = options.from === undefined ? (saved?.resumptionToken ?? null) : null;
  const summary: HarvestSummary = {
    source,
    start: resumeToken ? { kind: 'resumed', token: resumeToken } : { kind: 'new', from: options.from ?? saved?.highWater ?? null },
    pages: 0,
    records: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    deleted: 0,
    problems: [],
    notes: [],
    cycles: [],
    complete: false,
    highWater: saved?.highWater ?? null,
    seconds: 0,
  };
  const withParents: string[] = [];

  const run = async (request: HarvestRequest, runFrom: string | null, runStarted: string | null, granularity: string | null) => {
    for await (const page of listRecordsPages(request, client)) {
      if (runStarted === null) {
        const g = granularity ?? (await identifyGranularity(options.baseUrl, client));
        runStarted = atGranularity(page.responseDate ?? new Date().toISOString(), g);
      }
      const changes: ItemChange[] = [];
      if (page.doctypeNote !== null) summary.notes.push({ file: page.url, position: 'document', reason: page.doctypeNote });
      // `ddb`: whole packages, as heritage-api's own provider gives them (./oai/packageRecords.ts); else EDM.
      const reads =
        options.metadataPrefix === 'ddb'
          ? readPackagePage(page.body, options.limits ?? DEFAULT_LIMITS)
          : mapAsync(readEdmRecords(once(page.body), options.limits ?? DEFAULT_LIMITS), (result) => edmChange(result, options.edm));
      for await (const read of reads) {
        if (read.kind === 'record') {
          summary.records++;
          changes.push(read.record);
          if (read.record.kind === 'upsert' && read.record.item.parentRef !== null) withParents.push(read.record.item.id);
        } else if (read.kind === 'note') {
          summary.notes.push({ file: page.url, position: read.position, reason: read.note });
        } else if (read.kind === 'error') {
          summary.problems.push({ file: page.url, position: read.position, reason: read.reason });
        }
      }
      const state: HarvestState = page.resumptionToken
        ? { highWater: saved?.highWater ?? null, resumptionToken: page.resumptionToken, runFrom, runStarted }
        : { highWater: runStarted, resumptionToken: null, runFrom: null, runStarted: null };
      const result = await store.applyItemChanges(changes, { source, state });
      summary.pages++;
      summary.inserted += result.inserted;
      summary.updated += result.updated;
      summary.unchanged += result.unchanged;
      summary.deleted += result.deleted;
      // The repository may announce the list's size (OAI-PMH 3.5); the cursor counts the records before this page.
      const total = page.completeListSize ?? undefined;
      const done = page.cursor !== null ? page.cursor + page.recordCount : summary.records;
      progress.update({ records: summary.records, errors: summary.problems.length, ...(total ? { done, total, unit: 'records' } : {}) });
      if (!page.resumptionToken) {
        summary.complete = true;
        summary.highWater = runStarted;
      }
      // Stopping here is safe: the page and the token of the next one are stored together.
      if (options.signal?.aborted) {
        summary.interrupted = !summary.complete;
        return;
      }
    }
    // noRecordsMatch: nothing changed since `from`; the mark stays where it was.
    if (summary.pages === 0) summary.complete = true;
  };

  try {
    if (resumeToken) {
      try {
        await run(
          { baseUrl: options.baseUrl, metadataPrefix: options.metadataPrefix, resumptionToken: resumeToken },
          saved?.runFrom ?? null,
          saved?.runStarted ?? null,
          null,
        );
      } catch (e) {
        // Tokens expire (OAI-PMH 3.5): start the stopped run again from its own `from`; records already stored come back unchanged.
        if (!(e instanceof OaiError && e.code === 'badResumptionToken') || summary.pages > 0) throw e;
        summary.start = { kind: 'new', from: saved?.runFrom ?? null };
        await run(request(options, saved?.runFrom ?? null), saved?.runFrom ?? null, null, null);
      }
    } else {
      const from = options.from ?? saved?.highWater ?? null;
      await run(request(options, from), from, null, null);
    }
  } catch (e) {
    // Stopped in the middle of a request: the pages before it are stored, and that is the summary.
    const byAbort = options.signal?.aborted && (e === options.signal.reason || (e instanceof Error && e.name === 'AbortError'));
    if (!byAbort) throw e;
    summary.interrupted = true;
  } finally {
    progress.stop();
    summary.cycles = await store.findCycles(withParents);
    summary.seconds = (Date.now() - started) / 1000;
  }
  return summary;
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

async function* mapAsync<A, B>(items: AsyncIterable<A>, f: (a: A) => B): AsyncGenerator<B> {
  for await (const a of items) yield f(a);
}

function request(options: HarvestOptions, from: string | null): HarvestRequest {
  return {
    baseUrl: options.baseUrl,
    metadataPrefix: options.metadataPrefix,
    ...(options.set !== undefined ? { set: options.set } : {}),
    ...(from !== null ? { from } : {}),
  };
}
