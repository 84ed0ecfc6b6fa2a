/**
 * A fast path in front of Fastify for the most frequent answers: the package
 * of an item (spec 4.3, ./packageAnswers.ts) and its `parents` chain (spec
 * 4.4, rendered once and kept by ./hierarchyAnswers.ts).
 *
 * Why (measured by the bench, docs/benchmarks.md): a cached `parents` answer costs a bare node:http server
 * about 13 µs of CPU here, most of it the kernel's; through Fastify, its hooks
 * and plugins it cost about 24 µs, so `parents` reached only 0.35-0.52 of the
 * bare server. Here an answer takes the key check, the negotiation and the
 * lookup, and nothing else.
 *
 * It answers only requests it can answer exactly as the route does, with the
 * same status, headers and body (test/http/fastPath.test.ts compares the two):
 * a GET of /items/{id}/parents, /items/{id}/aip or /items/{id} (or the same
 * under /2; /items/{id} unless Accept asks for linked data) with no query
 * string and no percent-encoding, a Host, an Accept the route accepts, a valid
 * key in the Authorization header; for `parents` no Accept-Encoding
 * (@fastify/compress decides those) and no If-None-Match; for packages no 304. Everything else,
 * and every error, is left to Fastify, which answers it as before.
 *
 * At log level info or lower it writes the request's log line with the code
 * the routes use (./requestLog.ts), so that request logging does not switch
 * it off (docs/configuration.md "The fast path for packages and `parents`"). With trustProxy on, a request with
 * X-Forwarded-For is left to Fastify, whose rules give the logged address.
 *
 * It is off whenever Fastify would do more for a request than answer it:
 * with rate limiting on (the limiter counts in Fastify) and with a list of
 * CORS origins (the answer then depends on Origin).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import type { KeyedRequest } from './auth.js';
import { ITEM_VARY, itemRepresentation } from './formatChoice.js';
import { withoutGenerationPrefix } from './generation.js';
import type { HierarchyAnswers } from './hierarchyAnswers.js';
import { ITEM_LINKED_DATA } from './linkedData.js';
import type { PackageAnswer, PackageAnswers } from './packageAnswers.js';
import type { AnswerLog } from './requestLog.js';
import { isValidItemId } from '../domain/itemIds.js';

/**
 * Returns false and leaves the request untouched when it does not take it by its method
 * and path; else returns true and answers it once the store has answered (the store
 * seam is asynchronous), or hands it to `FastPathDeps.fallback`
 * (Fastify) when it cannot answer it exactly as the route does.
 */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface FastPathDeps {
  config: Config;
  /** Writes the request log lines of an answer; undefined when requests are not logged. */
  log: AnswerLog | undefined;
  /** The headers @fastify/cors adds to every answer, when they do not depend on the request. */
  cors: { allowOrigin: string; exposeHeaders: string } | undefined;
  /** What answers a request the fast path took but cannot answer itself: Fastify. */
  fallback: (req: IncomingMessage, res: ServerResponse) => void;
  /** Rejects when the request may not be answered; undefined for an anonymous read (auth.anonymousRead). */
  authenticate: (request: KeyedRequest) => Promise<string | undefined>;
  hierarchies: HierarchyAnswers;
  packages: PackageAnswers;
  /**
   * Counts an answer under its route's pattern, as Fastify's answers are
   * counted (src/http/metrics.ts), timed from `started`
   * (performance.now() when the request came).
   */
  record?: (route: string, status: number, started: number) => void;
}

const PREFIX = '/items/';
/** The length of an API key (../apiKeys.ts): 32 bytes in base64url. */
const KEY_LENGTH = 43;

export function createFastPath(deps: FastPathDeps): FastPath | undefined {
  const { config, cors, log } = deps;
  if (config.http.rateLimitMax > 0 || cors === undefined) return undefined;
  const proxied = config.server.trustProxy && log !== undefined;
  const cacheControl = `public, max-age=${config.http.cacheMaxAgeSeconds}`;

  /** The package, as the aip route answers it; Fastify answers what it cannot. */
  async function packageAnswer(req: IncomingMessage, res: ServerResponse, id: string, route: string, started: number): Promise<void> {
    let answer: PackageAnswer;
    try {
      await deps.authenticate(req);
      answer = await deps.packages.answer(req, id);
    } catch {
      return deps.fallback(req, res); // Fastify writes the error.
    }
    if (answer.status !== 200 || answer.body === undefined) return deps.fallback(req, res); // 304: Fastify's own way of writing it
    const h = answer.headers;
    // A literal, not a spread: a spread cost 1.4 µs a request.
    const head: Record<string, string | number> = {
      'access-control-allow-origin': cors!.allowOrigin,
      'access-control-expose-headers': cors!.exposeHeaders,
      vary: h.vary!,
      'cache-control': h['cache-control']!,
      'content-type': h['content-type']!,
      'last-modified': h['last-modified']!,
      etag: h.etag!,
    };
    if (h['content-encoding'] !== undefined) head['content-encoding'] = h['content-encoding'];
    head['content-length'] = answer.body.length;
    res.writeHead(200, head);
    res.end(answer.body);
    if (log !== undefined) log(req, 200, started);
    deps.record?.(route, 200, started);
  }

  /** The ancestry, as the parents route answers it; Fastify answers what it cannot. */
  async function parentsAnswer(req: IncomingMessage, res: ServerResponse, id: string, started: number): Promise<void> {
    let format: 'json' | 'xml';
    let contentType: string;
    let answer;
    try {
      await deps.authenticate(req);
      ({ format, contentType } = itemRepresentation(req, config.http.requireAccept));
      answer = await deps.hierarchies.body(id, format);
    } catch {
      return deps.fallback(req, res);
    }
    if (answer === undefined) return deps.fallback(req, res);
    res.writeHead(200, {
      'access-control-allow-origin': cors!.allowOrigin,
      'access-control-expose-headers': cors!.exposeHeaders,
      'content-type': contentType,
      vary: ITEM_VARY,
      'cache-control': cacheControl,
      etag: answer.etag,
      'content-length': answer.body.length,
    });
    res.end(answer.body);
    if (log !== undefined) log(req, 200, started);
    deps.record?.('/items/:id/parents', 200, started);
  }

  function wantsPackage(req: IncomingMessage): boolean {
    try {
      return ITEM_LINKED_DATA.choose(req, config.http.requireAccept).kind === 'route';
    } catch {
      return false;
    }
  }

  function failed(this: void, e: unknown): void {
    // Unreachable in practice: writeHead and end do not throw for the headers made here.
    process.emitWarning(`fast path: ${(e as Error).message}`);
  }

  return (req, res) => {
    const started = performance.now();
    if (req.method !== 'GET' || req.url === undefined || req.url.length > config.http.maxUrlLength) return false;
    // /2/items/… is the same request as /items/… (./generation.ts).
    const url = withoutGenerationPrefix(req.url);
    if (!url.startsWith(PREFIX)) return false;
    if (!req.headers.host) return false;
    if (proxied && req.headers['x-forwarded-for'] !== undefined) return false;
    const slash = url.indexOf('/', PREFIX.length);
    const id = url.slice(PREFIX.length, slash < 0 ? url.length : slash);
    // '?' and '%' would need Fastify's query and path decoding; a valid id has neither.
    // An id as long as a key is Fastify's: its hooks look for keys in the URL (./requestSecrets.ts).
    if (!isValidItemId(id) || id.length >= KEY_LENGTH) return false;
    const rest = slash < 0 ? '' : url.slice(slash);
    let answering: Promise<void>;
    if (rest === '/parents') {
      // Compression of parents answers is @fastify/compress's; a 304 is Fastify's to write.
      if (req.headers['accept-encoding'] !== undefined || req.headers['if-none-match'] !== undefined) return false;
      answering = parentsAnswer(req, res, id, started);
    } else if (rest === '/aip') answering = packageAnswer(req, res, id, '/items/:id/aip', started);
    else if (rest === '') {
      // An Accept that ranks an RDF syntax first (or none of the offers) is the route's (docs/linked-data.md).
      if (!wantsPackage(req)) return false;
      answering = packageAnswer(req, res, id, '/items/:id', started);
    } else return false;
    // The answers catch what the store and the key check throw; anything else (writing the
    // answer failed) ends the request, which no one else can answer any more.
    answering.catch(failed);
    return true;
  };
}
