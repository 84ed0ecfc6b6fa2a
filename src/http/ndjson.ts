/**
 * Every hit of a search as JSON Lines over HTTP (docs/export.md): the search routes
 * answer `Accept: application/x-ndjson` with src/search/exportHits.ts, as the CLI's
 * `export` writes them, streamed a page at a time in constant memory. To resume, the
 * client sends `afterId` with the id of the last line it has.
 */
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

export const NDJSON_TYPE = 'application/x-ndjson; charset=utf-8';

/** The client asks for JSON Lines: an Accept naming application/x-ndjson, not with q=0. */
export function wantsNdjson(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (typeof accept !== 'string') return false;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (type !== 'application/x-ndjson') return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** `afterId`: where a resumed export starts (after this id, in id order). */
export function afterIdOf(query: Record<string, unknown>): string | undefined {
  const v = query.afterId;
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v === '')
    throw ApiError.of('invalidSearch', 'afterId must be given once, with the id of the last line you have.');
  return v;
}

/**
 * Sends the lines. The first page is read before the status is sent, so a search the
 * engine refuses is still a 4xx with the catalog's body; after that the stream runs on.
 */
export async function sendNdjson(reply: FastifyReply, lines: AsyncGenerator<string, unknown>): Promise<FastifyReply> {
  const first = await lines.next();
  async function* all(): AsyncGenerator<string> {
    if (first.done) return;
    yield first.value;
    for await (const line of { [Symbol.asyncIterator]: () => lines }) yield line;
  }
  return reply.header('Content-Type', NDJSON_TYPE).send(Readable.from(all()));
}
