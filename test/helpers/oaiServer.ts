/**
 * A real OAI-PMH 2.0 repository for tests (node:http on 127.0.0.1, a free port),
 * serving real EDM records from fixture files, with the faults a harvester must
 * survive. http://www.openarchives.org/OAI/openarchivesprotocol.html
 *
 * It implements Identify and ListRecords (sections 4.2, 4.5) with the argument
 * rules and errors of section 3.6, flow control with idempotent resumption
 * tokens (3.5, 3.5.1), sets (2.6), from/until (2.7.1, 3.3.1) and deleted
 * records (2.5.1). Its date checks are written here independently of
 * src/ingest/oai/, so that a mistake in the client is not mirrored by the server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export interface OaiServerRecord {
  /** The OAI identifier (section 2.4), e.g. `oai:heritage-test:hope-combat/Item_35834473`. */
  identifier: string;
  /** YYYY-MM-DDThh:mm:ssZ; served in the repository's granularity. */
  datestamp: string;
  sets: string[];
  /** The record's `rdf:RDF` element, XML declaration removed. */
  metadata: string;
}

export type Granularity = 'YYYY-MM-DD' | 'YYYY-MM-DDThh:mm:ssZ';

/** An HTTP error answer instead of the OAI-PMH one, for `times` requests from `requestIndex` on. */
export interface FaultSpec {
  /** 0-based index into `requests`. */
  requestIndex: number;
  status: number;
  /** The Retry-After header, sent as given (seconds or an HTTP-date). */
  retryAfter?: string;
  /** Consecutive requests that get the fault; default 1. */
  times?: number;
}

export interface OaiServerOptions {
  records: OaiServerRecord[];
  /** Records per ListRecords page; default 10. */
  pageSize?: number;
  /** The one metadata format served; default 'edm'. */
  metadataPrefix?: string;
  /** Default YYYY-MM-DDThh:mm:ssZ. */
  granularity?: Granularity;
  /** Identifiers served as `<header status="deleted">` without metadata (section 2.5.1). */
  deleted?: string[];
  failOnce?: FaultSpec;
  failures?: FaultSpec[];
  /** Request index whose answer is cut off mid-body: the socket is destroyed. */
  dropConnectionAt?: number;
  /** Request index that is never answered (until close). */
  stallAt?: number;
  /** Answer every request with a 200 HTML page, like a repository's home page. */
  html?: boolean;
  /** A DOCTYPE declaration to send after the XML declaration of every answer. */
  doctype?: string;
}

export interface OaiServer {
  /** The base URL (section 2.2). */
  url: string;
  /** Every request received, as a full URL, in order. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Reads `*.xml` EDM files of `dir` in file-name order. Set: the folder name
 * unless given. Datestamps: one day apart from `firstDay`, so from/until
 * selections are predictable.
 */
export function loadEdmRecords(dir: string, options: { set?: string; limit?: number; firstDay?: string } = {}): OaiServerRecord[] {
  const set = options.set ?? basename(dir.replace(/\/+$/, ''));
  const first = Date.parse(`${options.firstDay ?? '2024-01-01'}T00:00:00Z`);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.xml'))
    .sort()
    .slice(0, options.limit ?? Infinity);
  return files.map((file, i) => ({
    identifier: `oai:heritage-test:${set}/${file.replace(/\.xml$/, '')}`,
    datestamp: new Date(first + i * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    sets: [set],
    metadata: readFileSync(join(dir, file), 'utf8').replace(/^\uFEFF?\s*<\?xml[^?]*\?>\s*/, ''),
  }));
}

class OaiProblem extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface ListSession {
  id: number;
  records: OaiServerRecord[];
}

export async function startOaiServer(options: OaiServerOptions): Promise<OaiServer> {
  const pageSize = options.pageSize ?? 10;
  const prefix = options.metadataPrefix ?? 'edm';
  const granularity = options.granularity ?? 'YYYY-MM-DDThh:mm:ssZ';
  const deleted = new Set(options.deleted ?? []);
  const faults = [...(options.failOnce ? [options.failOnce] : []), ...(options.failures ?? [])];
  const requests: string[] = [];
  // Tokens stay valid after use: section 3.5.1 makes them idempotent, and a
  // harvester re-sends one after a failed attempt.
  const tokens = new Map<string, { session: ListSession; cursor: number }>();
  let sessionCount = 0;
  const sockets = new Set<Socket>();
  let baseUrl = '';

  const server = createServer((req, res) => {
    const index = requests.push(`http://${req.headers.host ?? ''}${req.url ?? ''}`) - 1;
    const fault = faults.find((f) => index >= f.requestIndex && index < f.requestIndex + (f.times ?? 1));
    if (options.stallAt === index) return; // never answered; close() ends the socket
    if (fault) {
      res.writeHead(fault.status, {
        'content-type': 'text/html; charset=utf-8',
        ...(fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter }),
      });
      res.end(`<html><body><h1>${fault.status}</h1><p>Try again later.</p></body></html>`);
      return;
    }
    if (options.html) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!DOCTYPE html>\n<html><head><title>Our collections</title></head><body><h1>Welcome</h1><p>Browse our collections<br></body></html>',
      );
      return;
    }
    if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://x').pathname !== '/oai') {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    const xml = answer(req);
    if (options.dropConnectionAt === index) {
      dropMidBody(res, xml);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
    res.end(xml);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function answer(req: IncomingMessage): string {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    const keys = [...query.keys()];
    const args = Object.fromEntries(query.entries());
    const verbs = query.getAll('verb');
    try {
      // Section 3.6: badVerb for a missing, repeated or unknown verb.
      if (verbs.length !== 1)
        throw new OaiProblem('badVerb', verbs.length === 0 ? 'The verb argument is missing.' : 'The verb argument is repeated.');
      if (new Set(keys).size !== keys.length) throw new OaiProblem('badArgument', 'An argument is repeated.');
      const verb = verbs[0]!;
      if (verb === 'Identify') return wrap(identify(keys), requestElement(args), options.doctype);
      if (verb === 'ListRecords') return wrap(listRecords(args, keys), requestElement(args), options.doctype);
      throw new OaiProblem('badVerb', `'${verb}' is not an OAI-PMH verb this repository implements.`);
    } catch (e) {
      if (!(e instanceof OaiProblem)) throw e;
      // Section 3.2: for badVerb and badArgument the request element carries no attributes.
      const request = e.code === 'badVerb' || e.code === 'badArgument' ? `<request>${esc(baseUrl)}</request>` : requestElement(args);
      return wrap(`<error code="${e.code}">${esc(e.message)}</error>`, request);
    }
  }

  function identify(keys: string[]): string {
    if (keys.length !== 1) throw new OaiProblem('badArgument', 'Identify takes no arguments.');
    const earliest = options.records.map((r) => r.datestamp).sort()[0] ?? '2000-01-01T00:00:00Z';
    return (
      `<Identify><repositoryName>heritage-api test repository</repositoryName><baseURL>${esc(baseUrl)}</baseURL>` +
      `<protocolVersion>2.0</protocolVersion><adminEmail>test@example.org</adminEmail>` +
      `<earliestDatestamp>${served(earliest)}</earliestDatestamp><deletedRecord>transient</deletedRecord>` +
      `<granularity>${granularity}</granularity></Identify>`
    );
  }

  function listRecords(args: Record<string, string>, keys: string[]): string {
    let session: ListSession;
    let cursor: number;
    const token = args['resumptionToken'];
    if (token !== undefined) {
      // Section 4.5: resumptionToken is exclusive.
      if (keys.length !== 2) throw new OaiProblem('badArgument', 'resumptionToken is an exclusive argument.');
      const state = tokens.get(token);
      if (!state) throw new OaiProblem('badResumptionToken', `The resumptionToken '${token}' is unknown or expired.`);
      ({ session, cursor } = state);
    } else {
      const allowed = new Set(['verb', 'metadataPrefix', 'set', 'from', 'until']);
      const unknown = keys.find((k) => !allowed.has(k));
      if (unknown) throw new OaiProblem('badArgument', `'${unknown}' is not an argument of ListRecords.`);
      if (args['metadataPrefix'] === undefined) throw new OaiProblem('badArgument', 'metadataPrefix is required.');
      if (args['metadataPrefix'] !== prefix) throw new OaiProblem('cannotDisseminateFormat', `This repository serves '${prefix}' only.`);
      const [fromMs, untilMs] = dateRange(args['from'], args['until']);
      const set = args['set'];
      const records = options.records.filter((r) => {
        const t = Date.parse(r.datestamp);
        return t >= fromMs && t <= untilMs && (set === undefined || r.sets.some((s) => s === set || s.startsWith(`${set}:`)));
      });
      if (records.length === 0) throw new OaiProblem('noRecordsMatch', 'No records match the selection.');
      session = { id: ++sessionCount, records };
      cursor = 0;
    }
    const page = session.records.slice(cursor, cursor + pageSize);
    const next = cursor + page.length;
    let resumption = '';
    if (session.records.length > pageSize) {
      // A token with '/', '+' and a space: a client that does not percent-encode it gets badResumptionToken.
      const nextToken = next < session.records.length ? `s${session.id}/${next}+${prefix} page` : '';
      if (nextToken) tokens.set(nextToken, { session, cursor: next });
      resumption = `<resumptionToken completeListSize="${session.records.length}" cursor="${cursor}">${esc(nextToken)}</resumptionToken>`;
    }
    return `<ListRecords>${page.map(recordXml).join('')}${resumption}</ListRecords>`;
  }

  function recordXml(r: OaiServerRecord): string {
    const gone = deleted.has(r.identifier);
    const header =
      `<header${gone ? ' status="deleted"' : ''}><identifier>${esc(r.identifier)}</identifier>` +
      `<datestamp>${served(r.datestamp)}</datestamp>${r.sets.map((s) => `<setSpec>${esc(s)}</setSpec>`).join('')}</header>`;
    return `<record>${header}${gone ? '' : `<metadata>${r.metadata}</metadata>`}</record>`;
  }

  /** Section 3.3.1 and 2.7.1: each date valid, one granularity, not finer than the repository's, from <= until. */
  function dateRange(from: string | undefined, until: string | undefined): [number, number] {
    const bounds: number[] = [];
    const kinds = new Set<string>();
    for (const [value, end] of [
      [from, false],
      [until, true],
    ] as const) {
      if (value === undefined) {
        bounds.push(end ? Infinity : -Infinity);
        continue;
      }
      const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
      const seconds = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(value);
      const ms = Date.parse(day ? `${value}T00:00:00Z` : value);
      // The round trip refuses dates such as 2024-02-30 that Date.parse rolls over.
      const valid =
        (day || seconds) &&
        !Number.isNaN(ms) &&
        new Date(ms)
          .toISOString()
          .replace(/\.000Z$/, 'Z')
          .startsWith(value.replace(/Z$/, ''));
      if (!valid) throw new OaiProblem('badArgument', `'${value}' is not a valid datestamp.`);
      if (seconds && granularity === 'YYYY-MM-DD')
        throw new OaiProblem('badArgument', `'${value}' is finer than the repository's granularity YYYY-MM-DD.`);
      kinds.add(day ? 'day' : 'seconds');
      bounds.push(day && end ? ms + 86_399_999 : ms);
    }
    if (kinds.size > 1) throw new OaiProblem('badArgument', 'from and until have different granularities.');
    if (bounds[0]! > bounds[1]!) throw new OaiProblem('badArgument', 'from is later than until.');
    return [bounds[0]!, bounds[1]!];
  }

  function served(datestamp: string): string {
    return granularity === 'YYYY-MM-DD' ? datestamp.slice(0, 10) : datestamp;
  }

  function requestElement(args: Record<string, string>): string {
    const attrs = Object.entries(args)
      .map(([k, v]) => ` ${k}="${esc(v)}"`)
      .join('');
    return `<request${attrs}>${esc(baseUrl)}</request>`;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oai`;

  return {
    url: baseUrl,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        for (const s of sockets) s.destroy();
      }),
  };
}

function wrap(content: string, request: string, doctype?: string): string {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n${doctype === undefined ? '' : `${doctype}\n`}` +
    '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
    'xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">\n' +
    `<responseDate>${now}</responseDate>\n${request}\n${content}\n</OAI-PMH>\n`
  );
}

/** Headers promise the whole body, half is sent, then the connection is cut: what a network failure mid-transfer looks like. */
function dropMidBody(res: ServerResponse, xml: string): void {
  const bytes = Buffer.from(xml, 'utf8');
  res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8', 'content-length': bytes.length });
  res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.socket?.destroy());
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
