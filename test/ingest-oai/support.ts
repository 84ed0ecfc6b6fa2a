/** Shared by the OAI-PMH client tests: the real records served, and readers for what came back. */
import { XMLParser } from 'fast-xml-parser';
import { FIXTURES } from '../helpers/paths.js';
import { loadEdmRecords, type OaiServerRecord } from '../helpers/oaiServer.js';
import type { RetryInfo } from '../../src/ingest/oai/listRecordsPages.js';

export const HOPE_DIR = `${FIXTURES}items/edm/hope-combat/`;
export const MIMO_DIR = `${FIXTURES}items/edm/mimo/`;

/** 23 HOPE records dated 2024-01-01.. and 7 MIMO records dated 2025-01-01..: two sets, 30 records. */
export function sampleRecords(): OaiServerRecord[] {
  return [
    ...loadEdmRecords(HOPE_DIR, { limit: 23, firstDay: '2024-01-01' }),
    ...loadEdmRecords(MIMO_DIR, { limit: 7, firstDay: '2025-01-01' }),
  ];
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, isArray: (n) => n === 'record' });

/** The record headers in a ListRecords body, read independently of the client's own parsing. */
export function headersIn(body: string): Array<{ identifier: string; deleted: boolean; hasMetadata: boolean }> {
  const doc = parser.parse(body) as {
    'OAI-PMH': { ListRecords: { record?: Array<{ header: { identifier: string; '@status'?: string }; metadata?: unknown }> } };
  };
  return (doc['OAI-PMH'].ListRecords.record ?? []).map((r) => ({
    identifier: r.header.identifier,
    deleted: r.header['@status'] === 'deleted',
    hasMetadata: r.metadata !== undefined,
  }));
}

export async function collect<T>(pages: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const p of pages) out.push(p);
  return out;
}

/** A `sleep` that returns at once and remembers what it was asked to wait, and the onRetry reports. */
export function recorder(): {
  delays: number[];
  retries: RetryInfo[];
  sleep: (ms: number) => Promise<void>;
  onRetry: (i: RetryInfo) => void;
} {
  const delays: number[] = [];
  const retries: RetryInfo[] = [];
  return {
    delays,
    retries,
    sleep: async (ms) => {
      delays.push(ms);
    },
    onRetry: (info) => {
      retries.push(info);
    },
  };
}

/** The error a promise rejects with (assert.rejects cannot compare a whole value with fields of a class). */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}
