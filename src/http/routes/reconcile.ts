/**
 * The W3C Reconciliation Service API 0.2 at `/reconcile` (and `/2/reconcile`,
 * ../generation.ts), over persons, institutions and items (docs/reconciliation.md):
 *
 * - `GET /reconcile`: the manifest, without a key whatever auth.anonymousRead says (the
 *   spec's "Authentication": all queries need the credentials "except for retrieving the
 *   service manifest itself"); with `queries=` a query batch, with `extend=` a data extension
 *   query (both also `POST`ed as application/x-www-form-urlencoded, the spec's primary form);
 * - `GET /reconcile/suggest/{entity,type,property}?prefix=&cursor=`, `/reconcile/properties?type=&limit=`
 *   (data extension property proposals), `/reconcile/preview?id=` (HTML).
 *
 * Everything but the manifest takes the key as every read route does (auth.anonymousRead
 * opens it; docs/reconciliation.md "Keys"): the server registers `/reconcile` among the public
 * routes, where it checks the key itself unless the manifest is asked for, and the other
 * routes among the keyed ones (../routeAccess.ts). CORS is open to every origin on every route, as
 * the spec's "Cross-Origin Access" requires of all endpoints alike. Bad input is a 400 of our
 * catalog saying what to fix (the spec leaves error bodies open: "Error Handling"), a batch
 * over `batchSize` the 413 the spec names; never a 500.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, RouteShorthandOptions } from 'fastify';
import type { Config } from '../../config.js';
import type { ProviderSummary } from '../../domain/institution.js';
import { ApiError, shown } from '../../errors.js';
import type { EngineAnswer, EngineSearch } from '../../search/indexHost.js';
import type { Store } from '../../store/Store.js';
import { OPEN_CORS } from '../openCors.js';
import type { EntitySources } from '../reconcile/entities.js';
import { buildManifest, previewHtml, type ManifestOptions } from '../reconcile/manifest.js';
import { readExtendQuery, readQueryBatch } from '../reconcile/requests.js';
import {
  entityById,
  extend,
  MAX_CURSOR,
  proposeProperties,
  reconcileBatch,
  suggestEntities,
  suggestProperties,
  suggestTypes,
} from '../reconcile/service.js';
import { isKind, KINDS, type EntityKind } from '../reconcile/vocabulary.js';
import { HOST } from './iiif.js';

export interface ReconcileRouteDeps {
  config: Config;
  store: Pick<Store, 'listProviders' | 'dataVersion'>;
  /** The key check, for `/reconcile` asked for more than its manifest. */
  checkKey: onRequestHookHandler;
  search: { engine(search: EngineSearch): Promise<EngineAnswer> };
}

export interface ReconcileRoutes {
  /** `GET|POST /reconcile`: the manifest without a key, queries and extensions with one. */
  endpoint(open: FastifyInstance): Promise<void>;
  /** The suggest, properties and preview routes, which need a key. */
  lookups(keyed: FastifyInstance): void;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';
const FORM_TYPE = 'application/x-www-form-urlencoded';
/** A POST body: a batch of MAX_QUERIES queries with their properties fits with room to spare. */
const FORM_BYTES = 1024 * 1024;

type Args = Map<string, string[]>;

/** The query string's (or form's) arguments, repeats kept. */
function argsOf(text: string): Args {
  const args: Args = new Map();
  for (const [k, v] of new URLSearchParams(text)) args.set(k, [...(args.get(k) ?? []), v]);
  return args;
}

function queryArgs(request: FastifyRequest): Args {
  const url = request.raw.url ?? '';
  const q = url.indexOf('?');
  return argsOf(q < 0 ? '' : url.slice(q + 1));
}

/** Only the named arguments (and the OAuth ones, RFC 5849 section 3.5.3), each at most once. */
function checkArgs(args: Args, allowed: readonly string[]): void {
  for (const [name, values] of args) {
    if (name.startsWith('oauth_')) continue;
    if (!allowed.includes(name)) {
      const label = /^[A-Za-z][A-Za-z0-9_.-]{0,31}$/.test(name) ? `'${name}'` : 'a parameter';
      const takes = allowed.length === 0 ? 'none' : allowed.join(', ');
      throw ApiError.of(
        'badRequest',
        `${label} is not a parameter of this reconciliation operation; it takes ${takes} (docs/reconciliation.md).`,
      );
    }
    if (values.length > 1) throw ApiError.of('badRequest', `${name} is given ${values.length} times; send it once.`);
  }
}

const arg = (args: Args, name: string) => args.get(name)?.[0];

/**
 * A key the check refused (403 on every other route, as on the real service) is the 401 the
 * Reconciliation API's "Authentication" requires; everything else goes on to the application's
 * handler (../errorHandler.ts). The route's own handler, so that the key check's error, thrown in
 * a hook, comes here too.
 */
function reconcileErrors(error: unknown): never {
  if (error instanceof ApiError && error.errorName === 'NotAuthorizedException' && error.status === 403) {
    throw ApiError.of('reconcileInvalidApiKey').withHeaders(error.headers);
  }
  throw error;
}

function cursorOf(args: Args): number {
  const text = arg(args, 'cursor');
  if (text === undefined || text === '') return 0;
  if (!/^\d{1,7}$/.test(text) || Number(text) > MAX_CURSOR)
    throw ApiError.of('badRequest', `cursor is not a whole number from 0 to ${MAX_CURSOR}.`);
  return Number(text);
}

function typeArg(args: Args, required: boolean): EntityKind | undefined {
  const type = arg(args, 'type');
  if (type === undefined || type === '') {
    if (required) throw ApiError.of('badRequest', `type is missing: send type= one of ${KINDS.join(', ')}.`);
    return undefined;
  }
  if (!isKind(type))
    throw ApiError.of('badRequest', `type '${shown(type, 40)}' is not a type of this service; send one of ${KINDS.join(', ')}.`);
  return type;
}

/** The service's own base URL as the client used it: scheme, host, and `/2` when asked under it. */
function baseOf(request: FastifyRequest): string {
  const host = request.host;
  if (!HOST.test(host)) {
    throw ApiError.of(
      'badRequest',
      `the Host header '${shown(host)}' is not a host name with an optional port; the service's URLs are built from it.`,
    );
  }
  const path = request.originalUrl.split('?')[0] ?? '';
  return `${request.protocol}://${host}${path.slice(0, path.indexOf('/reconcile'))}`;
}

export function createReconcileRoutes(deps: ReconcileRouteDeps): ReconcileRoutes {
  const { config, store } = deps;
  let institutions: { version: string; list: Promise<readonly ProviderSummary[]> } | undefined;
  const sources: EntitySources = {
    engine: (search) => deps.search.engine(search),
    async institutions() {
      // Few, and read again only when the data has changed (Store.dataVersion).
      const version = await store.dataVersion();
      if (institutions?.version !== version) {
        const list = store.listProviders();
        institutions = { version, list };
        list.catch(() => (institutions = undefined));
      }
      return institutions.list;
    },
  };
  const manifestOptions = (request: FastifyRequest): ManifestOptions => ({
    base: baseOf(request),
    anonymousRead: config.auth.anonymousRead,
    pages: config.web.enabled,
  });
  const sendJson = (reply: FastifyReply, body: unknown) =>
    reply.header('Content-Type', JSON_TYPE).header('Cache-Control', 'no-store').send(JSON.stringify(body));

  /** The manifest needs no key; everything else is checked as every read route. */
  const keyUnlessManifest: onRequestHookHandler = function (request, reply, done) {
    if (request.method !== 'POST' && ![...queryArgs(request).keys()].some((k) => !k.startsWith('oauth_'))) return done();
    return (deps.checkKey as unknown as (this: unknown, ...args: unknown[]) => unknown).call(this, request, reply, done);
  };
  const options = (onRequest?: onRequestHookHandler): RouteShorthandOptions => ({
    schema: { hide: true },
    config: { ...OPEN_CORS, ignoresQuery: true },
    errorHandler: reconcileErrors,
    ...(onRequest === undefined ? {} : { onRequest }),
  });

  const registerEndpoint = async (app: FastifyInstance) => {
    await app.register(async (scope) => {
      scope.addContentTypeParser(FORM_TYPE, { parseAs: 'string', bodyLimit: FORM_BYTES }, (_request, body, done) => done(null, body));
      // Any other body: refused below with what to send instead, not a 415 of the framework's.
      scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: FORM_BYTES }, (_request, _body, done) => done(null, undefined));
      scope.setErrorHandler((error, _request, _reply) => {
        if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
          throw ApiError.of(
            'badRequest',
            `the form is larger than ${FORM_BYTES} bytes; send at most ${FORM_BYTES} bytes, in smaller batches.`,
          );
        }
        // The application's handler answers everything else (../errorHandler.ts).
        throw error;
      });
      const endpoint = async (request: FastifyRequest, reply: FastifyReply) => {
        let args: Args;
        if (request.method === 'POST') {
          const type = String(request.headers['content-type'] ?? '')
            .split(';')[0]!
            .trim()
            .toLowerCase();
          if (type !== FORM_TYPE) {
            throw ApiError.of(
              'badRequest',
              `a POST to /reconcile carries queries= or extend= as ${FORM_TYPE} (Reconciliation API 0.2), not ${type === '' ? 'a body without Content-Type' : shown(type, 60)}.`,
            );
          }
          checkArgs(queryArgs(request), []);
          args = argsOf(typeof request.body === 'string' ? request.body : '');
        } else args = queryArgs(request);
        checkArgs(args, ['queries', 'extend']);
        const queries = arg(args, 'queries');
        const extendText = arg(args, 'extend');
        if (queries !== undefined && extendText !== undefined)
          throw ApiError.of('badRequest', 'send either queries= or extend=, not both.');
        if (queries !== undefined) return sendJson(reply, await reconcileBatch(sources, readQueryBatch(queries)));
        if (extendText !== undefined) return sendJson(reply, await extend(sources, readExtendQuery(extendText)));
        if (request.method === 'POST') throw ApiError.of('badRequest', 'the form has neither queries= nor extend=; send one of them.');
        return reply
          .header('Content-Type', JSON_TYPE)
          .header('Cache-Control', `public, max-age=${config.http.cacheMaxAgeSeconds}`)
          .send(JSON.stringify(buildManifest(manifestOptions(request))));
      };
      scope.get('/reconcile', options(keyUnlessManifest), endpoint);
      scope.post('/reconcile', options(keyUnlessManifest), endpoint);
    });
  };

  const registerLookups = (scope: FastifyInstance) => {
    const keyed = options();
    scope.get('/reconcile/suggest/entity', keyed, async (request, reply) => {
      const args = queryArgs(request);
      checkArgs(args, ['prefix', 'cursor', 'type']);
      const type = typeArg(args, false);
      return sendJson(
        reply,
        await suggestEntities(sources, arg(args, 'prefix') ?? '', cursorOf(args), type === undefined ? KINDS : [type]),
      );
    });
    scope.get('/reconcile/suggest/type', keyed, async (request, reply) => {
      const args = queryArgs(request);
      checkArgs(args, ['prefix', 'cursor']);
      return sendJson(reply, suggestTypes(arg(args, 'prefix') ?? '', cursorOf(args)));
    });
    scope.get('/reconcile/suggest/property', keyed, async (request, reply) => {
      const args = queryArgs(request);
      checkArgs(args, ['prefix', 'cursor']);
      return sendJson(reply, suggestProperties(arg(args, 'prefix') ?? '', cursorOf(args)));
    });
    scope.get('/reconcile/properties', keyed, async (request, reply) => {
      const args = queryArgs(request);
      checkArgs(args, ['type', 'limit']);
      const limitText = arg(args, 'limit');
      if (limitText !== undefined && !/^[1-9]\d{0,2}$/.test(limitText))
        throw ApiError.of('badRequest', 'limit is not a whole number from 1 to 999.');
      return sendJson(reply, proposeProperties(typeArg(args, true)!, limitText === undefined ? undefined : Number(limitText)));
    });
    scope.get('/reconcile/preview', keyed, async (request, reply) => {
      const args = queryArgs(request);
      checkArgs(args, ['id']);
      const id = arg(args, 'id');
      if (id === undefined || id === '')
        throw ApiError.of('badRequest', 'id is missing: send id=<entity id>, as a reconciliation candidate names it.');
      const options = manifestOptions(request);
      const entity = await entityById(sources, id);
      if (entity === undefined) {
        throw ApiError.of('reconcileEntityNotFound', id);
      }
      return reply
        .header('Content-Type', HTML_TYPE)
        .header('Cache-Control', 'no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(previewHtml(entity, options));
    });
  };
  return { endpoint: registerEndpoint, lookups: registerLookups };
}
