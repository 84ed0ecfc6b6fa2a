/**
 * GET /version and GET /status (docs/api.md "GET /version and GET /status").
 *
 * /version: the version of this service as plain text, as the real service
 * answers it (ddb-openapi-6.8.yml getVersion: a string, `*∕*`). No key: the
 * current generation of the real API (6.8) and its clients call it without
 * one (2.6.1 still listed one).
 *
 * /status: how fresh the data is: version, data version (opaque, changes
 * whenever the stored data may have changed), counts of items and persons,
 * the last load from files of each kind and, per harvested source, when it
 * was last harvested and its high-water mark. It needs a key like every
 * read of the data: it names the operator's harvest sources (their URLs are
 * shown without user information or query).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import type { HarvestStatus, LoadRun, Store } from '../../store/Store.js';
import { VERSION } from '../../version.js';
import { jsonOnly } from '../formatChoice.js';
import { byHeaderValue, negotiate } from '../negotiate.js';
import { statusSchema, versionSchema } from '../partSchemas.js';

export interface ServiceRouteDeps {
  config: Config;
  store: Pick<Store, 'countItems' | 'countPersons' | 'dataVersion' | 'listHarvests' | 'listLoads'>;
}

const textOffer = byHeaderValue((accept: string) => negotiate(accept, ['text/plain']));

/** A URL as /status may show it: no user information, no query (either may hold a secret). */
function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/** The source key of src/ingest/harvest.ts harvestSource: JSON [baseUrl, metadataPrefix, set]. */
function harvestEntry(h: HarvestStatus) {
  let parts: unknown;
  try {
    parts = JSON.parse(h.source);
  } catch {
    parts = undefined;
  }
  const [baseUrl, metadataPrefix, set] = (Array.isArray(parts) ? parts : []) as unknown[];
  return {
    baseUrl: typeof baseUrl === 'string' ? shownUrl(baseUrl) : null,
    metadataPrefix: typeof metadataPrefix === 'string' ? metadataPrefix : null,
    set: typeof set === 'string' ? set : null,
    lastHarvested: h.updatedAt.toISOString(),
    highWater: h.state.highWater,
    // A run stopped or under way keeps the token of its next page.
    complete: h.state.resumptionToken === null,
  };
}

const loadEntry = (l: LoadRun) => ({
  kind: l.kind,
  lastLoaded: l.finishedAt.toISOString(),
  records: l.records,
  inserted: l.inserted,
  updated: l.updated,
  unchanged: l.unchanged,
  deleted: l.deleted,
  problems: l.problems,
});

/** GET /version, which needs no key (the server registers it among the public routes). */
export function registerVersionRoute(app: FastifyInstance, deps: Pick<ServiceRouteDeps, 'config'>): void {
  const { config } = deps;
  app.get('/version', { schema: versionSchema }, async (request: FastifyRequest, reply: FastifyReply) => {
    const accept = request.headers.accept;
    if (accept === undefined || accept.trim() === '') {
      if (config.http.requireAccept) throw ApiError.of('notAcceptable', 'text/plain (none was sent)');
    } else if (!textOffer(accept)) {
      throw ApiError.of('notAcceptable', 'text/plain');
    }
    return reply.header('Content-Type', 'text/plain; charset=utf-8').header('Cache-Control', 'no-cache').send(VERSION);
  });
}

/** GET /status, which needs a key (the server registers it among the keyed routes). */
export function registerStatusRoute(app: FastifyInstance, deps: ServiceRouteDeps): void {
  const { config, store } = deps;
  // Counting a million rows takes a while; the answer only changes with the data.
  let counted: { version: string; items: number; persons: number } | undefined;

  async function status(request: FastifyRequest, reply: FastifyReply) {
    const rep = jsonOnly(request, config.http.requireAccept);
    const dataVersion = await store.dataVersion();
    if (counted?.version !== dataVersion)
      counted = { version: dataVersion, items: await store.countItems(), persons: await store.countPersons() };
    const { items, persons } = counted;
    const body = {
      version: VERSION,
      dataVersion,
      items,
      persons,
      loads: (await store.listLoads()).map(loadEntry),
      harvests: (await store.listHarvests()).map(harvestEntry),
    };
    return reply.header('Content-Type', rep.contentType).header('Cache-Control', 'no-cache').send(JSON.stringify(body));
  }

  app.get('/status', { schema: statusSchema }, status);
}
