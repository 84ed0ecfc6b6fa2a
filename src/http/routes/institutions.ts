/**
 * GET /institutions, /institutions/sectors and /institutions/map
 * (docs/api.md "Institutions"), from the institutions the store's packages name. The answers
 * change only with the data (store.dataVersion()): the list of institutions
 * is read once per data version and the rendered bodies kept with their
 * validators (../validators.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { institutionMap, institutionTree, sectorCounts } from '../bodies/institutions.js';
import { LruCache } from '../../lruCache.js';
import type { Store } from '../../store/Store.js';
import type { ProviderSummary } from '../../domain/institution.js';
import { jsonOnly } from '../formatChoice.js';
import { institutionsSchema, MAP_LIMITS, mapSchema, sectorsSchema } from '../institutionSchemas.js';
import { sendTagged, tagged, type TaggedBody } from '../validators.js';

const INSTITUTION_CACHE_BYTES = 8 * 1024 * 1024;

export interface InstitutionRouteDeps {
  config: Config;
  store: Pick<Store, 'dataVersion' | 'listProviders'>;
}

type ListQuery = { hasItems?: boolean; sector?: string };
type MapQuery = { hasItems?: boolean; offset?: number; length?: string; clusterid?: string };

export function registerInstitutionRoutes(app: FastifyInstance, deps: InstitutionRouteDeps): void {
  const { config, store } = deps;
  const cacheControl = `public, max-age=${config.http.cacheMaxAgeSeconds}`;
  const bodies = new LruCache<TaggedBody>(INSTITUTION_CACHE_BYTES, (b) => b.body.length + 160);
  let version = '';
  let providers: ProviderSummary[] = [];

  /** The body under `key`, made by `make` from the institutions of the current data. */
  async function body(key: string, make: (list: readonly ProviderSummary[]) => unknown): Promise<TaggedBody> {
    const now = await store.dataVersion();
    if (now !== version) {
      const list = await store.listProviders();
      if (now === version) return body(key, make); // another request read them meanwhile
      providers = list;
      bodies.clear();
      version = now;
    }
    let cached = bodies.get(key);
    if (cached === undefined) {
      cached = tagged(Buffer.from(JSON.stringify(make(providers))));
      bodies.set(key, cached);
    }
    return cached;
  }

  const answer = async (request: FastifyRequest, reply: FastifyReply, key: string, make: (list: readonly ProviderSummary[]) => unknown) => {
    const rep = jsonOnly(request, config.http.requireAccept);
    return sendTagged(request, reply.header('Content-Type', rep.contentType), await body(key, make), cacheControl);
  };

  app.get<{ Querystring: ListQuery }>('/institutions', { schema: institutionsSchema }, async (request, reply) => {
    const { hasItems = false, sector } = request.query;
    return answer(request, reply, `list\u0000${hasItems}\u0000${sector ?? ''}`, (list) => institutionTree(list, { hasItems, sector }));
  });

  app.get('/institutions/sectors', { schema: sectorsSchema }, async (request, reply) => answer(request, reply, 'sectors', sectorCounts));

  app.get<{ Querystring: MapQuery }>('/institutions/map', { schema: mapSchema }, async (request, reply) => {
    const { hasItems = false, offset = 0, length = '-1', clusterid = '-1' } = request.query;
    if (!/^(-1|[0-9]{1,7})$/.test(length) || Number(length) > MAP_LIMITS.maxLength) {
      throw ApiError.of(
        'badRequest',
        `length must be -1 (every institution) or a whole number from 0 to ${MAP_LIMITS.maxLength} in the digits 0-9.`,
      );
    }
    if (clusterid !== '-1')
      throw ApiError.of('badRequest', 'clusterid must be -1: this service has one cluster, holding every institution.');
    return answer(request, reply, `map\u0000${hasItems}\u0000${offset}\u0000${length}`, (list) =>
      institutionMap(list, { hasItems }, offset, Number(length)),
    );
  });
}
