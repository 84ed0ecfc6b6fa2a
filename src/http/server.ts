/**
 * Builds the Fastify application: plugins, hooks, error mapping, routes.
 * This folder is the only place that knows HTTP; everything it needs comes in
 * as arguments (config, store).
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type onResponseHookHandler, LogController } from 'fastify';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import type { Server as HttpsServer } from 'node:https';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import type { Store } from '../store/Store.js';
import { createKnownPaths, plainOptionsHook } from './allowedMethods.js';
import { createAuthenticator } from './auth.js';
import { createAuthHooks } from './authHooks.js';
import { createRouteAccess } from './routeAccess.js';
import { createClientErrorHandler, createConnectHandler, createVersionCheck } from './clientErrors.js';
import { createCorsHeaders } from './corsHeaders.js';
import { createErrorSender, installErrorHandling } from './errorHandler.js';
import { apiErrorOf } from './errorMapping.js';
import { createFastPath, type FastPath } from './fastPath.js';
import { createMetrics, UNMATCHED } from './metrics.js';
import type { NodeLinks } from './clusterWorker.js';
import { createIndexAge } from './indexAge.js';
import { countingStoreErrors } from './storeErrorCount.js';
import type { SearchRunner } from '../search/searchPool.js';
import { withoutGenerationPrefix } from './generation.js';
import { createHierarchyAnswers } from './hierarchyAnswers.js';
import { createItemGraphAnswers } from './itemGraphAnswers.js';
import { createPackageAnswers } from './packageAnswers.js';
import { addQueryChecks } from './queryChecks.js';
import { addDigestValidators } from './validators.js';
import { MediaDirectory } from '../media/mediaDirectory.js';
import { registerBinaryRoutes } from './routes/binaries.js';
import { registerChildrenRoutes } from './routes/children.js';
import { createLogSink, type LogSink } from './logSink.js';
import { createRequestLog, logSerializers, requestId } from './requestLog.js';
import { createSecretHooks } from './requestSecrets.js';
import { registerEntityRoutes } from './routes/entities.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerMetricsRoute } from './routes/metrics.js';
import { registerIiifRoutes } from './routes/iiif.js';
import { registerIiifCollectionRoutes } from './routes/iiifCollections.js';
import { registerInstitutionRoutes } from './routes/institutions.js';
import { registerItemRoutes } from './routes/items.js';
import { openapiOptions, openapiRoute, registerDocsRoutes } from './routes/openapi.js';
import { registerOaiRoutes } from './routes/oai.js';
import { createReconcileRoutes } from './routes/reconcile.js';
import { registerPartRoutes } from './routes/parts.js';
import { registerPersonDataRoutes } from './routes/personData.js';
import { registerSitemapRoutes } from './routes/sitemaps.js';
import { registerPageRoutes } from './routes/pages.js';
import { registerRootRoute } from './routes/root.js';
import { registerSearchRoutes } from './routes/search.js';
import { registerSolrRoutes } from './routes/searchSelect.js';
import { registerFacetValueRoutes } from './routes/searchFacetValues.js';
import { registerMltRoutes } from './routes/searchMlt.js';
import { registerOrganizationRoutes } from './routes/searchOrganization.js';
import { registerStatusRoute, registerVersionRoute } from './routes/service.js';

export interface ServerOptions {
  /** A destination for the logs, written line by line; default stdout (./logSink.ts). Tests pass a stream to read them. */
  logStream?: NodeJS.WritableStream;
  /** false switches logging off (the CLI's --quiet and most tests). */
  logging?: boolean;
  /** In an HTTP worker of `serve --workers N`: what it shares with its node (./clusterWorker.ts). */
  node?: NodeLinks;
}

const CORS = {
  methods: ['GET', 'HEAD', 'OPTIONS'],
  allowedHeaders: ['Authorization', 'Accept', 'If-None-Match', 'If-Modified-Since'],
  exposedHeaders: ['ETag', 'Last-Modified', 'Retry-After', 'WWW-Authenticate', 'Content-Encoding'],
  maxAge: 86400,
};

/**
 * Node's limit on the request line and headers together: room for a URL of
 * http.maxUrlLength beside headers of Node's default 16 KiB, so that a long
 * URL gets the documented 414 and only oversized headers a 431 (docs/decisions.md "Malformed
 * requests").
 */
const HEADER_BYTES = 16 * 1024;

/** Node's request listener of each app: the fast path, then Fastify. Serve gives it to its HTTPS server too. */
const listeners = new WeakMap<FastifyInstance, RequestListener>();

export function requestListenerOf(app: FastifyInstance): RequestListener {
  const listener = listeners.get(app);
  if (listener === undefined) throw new Error('requestListenerOf: the app was not made by buildServer');
  return listener;
}

/** What a second Node server of an app (serve's HTTPS server) needs to answer as the first. */
export interface NodeServerParts {
  options: { requireHostHeader: false; maxHeaderSize: number };
  /** Adds the listeners for what Node answers itself otherwise: parser errors, CONNECT, Expect. */
  attach(server: Server | HttpsServer): void;
}

const serverParts = new WeakMap<FastifyInstance, NodeServerParts>();

const routeAccesses = new WeakMap<FastifyInstance, () => readonly string[]>();

/** The URL patterns of the routes an app answers without a key (tests compare them with docs/api.md). */
export function publicRoutesOf(app: FastifyInstance): readonly string[] {
  const publicRoutes = routeAccesses.get(app);
  if (publicRoutes === undefined) throw new Error('publicRoutesOf: the app was not made by buildServer');
  return publicRoutes();
}

export function nodeServerPartsOf(app: FastifyInstance): NodeServerParts {
  const parts = serverParts.get(app);
  if (parts === undefined) throw new Error('nodeServerPartsOf: the app was not made by buildServer');
  return parts;
}

export async function buildServer(config: Config, storeOfRecord: Store, options: ServerOptions = {}): Promise<FastifyInstance> {
  const logging = options.logging ?? true;
  // Metrics (./metrics.ts): the search runner is made with the entity routes below.
  // eslint-disable-next-line prefer-const -- set with the entity routes, below; the metrics made here read it later
  let searches: SearchRunner | undefined;
  const node = options.node;
  // A worker of a node leaves the search's metrics (and the replicas') to the primary, which hosts the search (./clusterMetrics.ts).
  const metrics = createMetrics(
    node
      ? undefined
      : { search: () => searches!.state(), indexAgeSeconds: () => indexAge(), replication: () => storeOfRecord.replication?.() },
  );
  const store = countingStoreErrors(storeOfRecord, metrics.storeError);
  const indexAge = createIndexAge(store, () => searches!.state());
  const corsHeaders = createCorsHeaders(config.http.corsOrigin, CORS.exposedHeaders);
  const sendError = createErrorSender(corsHeaders);
  const maxHeaderSize = config.http.maxUrlLength + HEADER_BYTES;
  let nodeServer: Server | undefined;
  const connect = createConnectHandler(corsHeaders);
  const clientError = createClientErrorHandler(
    { maxHeaderBytes: maxHeaderSize, maxUrlLength: config.http.maxUrlLength, headersTimeoutMs: () => nodeServer?.headersTimeout ?? 60_000 },
    corsHeaders,
  );
  const logSink: LogSink | undefined = logging ? createLogSink(options.logStream) : undefined;
  // Set once the routes exist; requests only arrive after listen().
  // eslint-disable-next-line prefer-const -- set once the routes exist, below; the handlers made here read it later
  let fastPath: FastPath | undefined;
  let fastify: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const unspokenVersion = createVersionCheck(corsHeaders);
  const listener: RequestListener = (req, res) => {
    if (unspokenVersion(req)) return;
    if (fastPath === undefined) return fastify!(req, res);
    if (!fastPath(req, res)) fastify!(req, res);
  };
  const app = Fastify({
    logger: logging
      ? {
          level: config.server.logLevel,
          stream: logSink,
          // API keys travel in the query string and the Authorization header: never log either.
          serializers: logSerializers,
        }
      : false,
    genReqId: requestId,
    // One line per request, the same for both paths, written below (./requestLog.ts).
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.server.trustProxy,
    // GET-only API: no request bodies.
    bodyLimit: 1024,
    // Long ids must reach our own checks (414 / a clear 400) instead of failing in the router.
    routerOptions: { maxParamLength: Number.MAX_SAFE_INTEGER },
    // Every path under /2 too, for clients of the newer API generation (./generation.ts);
    // request.originalUrl keeps what the client sent.
    rewriteUrl: (req) => withoutGenerationPrefix(req.url ?? '/'),
    // Errors raised before routing (a malformed URL) get our error body too.
    // Never error.message: it quotes the URL, key and all (docs/decisions.md "Keys never leak").
    frameworkErrors: (error, request, reply) => sendError(request, reply, apiErrorOf(error, request, config.search)),
    // Our own server, so that the fast path (./fastPath.ts) sees requests before Fastify;
    // the timeouts are those Fastify sets on the servers it makes itself.
    serverFactory: (handler, opts) => {
      fastify = handler;
      // Node answers a missing Host with a bare 400; we want our error body (docs/decisions.md "Host").
      const server: Server = createServer({ requireHostHeader: false, maxHeaderSize }, listener);
      nodeServer = server;
      server.keepAliveTimeout = opts.keepAliveTimeout as number;
      server.requestTimeout = opts.requestTimeout as number;
      server.setTimeout(opts.connectionTimeout as number);
      // A CONNECT, and an Expect other than 100-continue, would get Node's own answers (none, a bare 417).
      server.on('connect', connect).on('checkExpectation', listener);
      return server;
    },
    // What Node's parser refuses gets our error body too (./clientErrors.ts).
    clientErrorHandler: (err, socket) => clientError(err as unknown as Parameters<typeof clientError>[0], socket),
  });
  listeners.set(app, listener);
  serverParts.set(app, {
    options: { requireHostHeader: false, maxHeaderSize },
    attach: (server) => server.on('clientError', clientError).on('connect', connect).on('checkExpectation', listener),
  });
  if (logSink) app.addHook('onClose', (_app, done) => (logSink.close(), done()));
  const authenticate = createAuthenticator(store, { anonymousRead: config.auth.anonymousRead });
  // Keys redacted by value from every body, link header and log line (./requestSecrets.ts):
  // its onSend runs before the digest validators and compression, added below.
  const secrets = createSecretHooks(authenticate.activeKeyHashes);
  app.addHook('onRequest', secrets.onRequest);
  app.addHook('onSend', secrets.onSend);
  const requestLog = logSink ? createRequestLog(app.log, logSink) : undefined;
  if (requestLog) {
    const route = requestLog.route;
    app.addHook('onResponse', (request, reply, done) => {
      route(request, request.id, reply.statusCode, reply.elapsedTime, secrets.of(request));
      done();
    });
  }

  // The paths of the routes, for 405 and OPTIONS (./allowedMethods.ts).
  const known = createKnownPaths();
  installErrorHandling(app, sendError, known, config.search);
  app.addHook('onRoute', addQueryChecks);
  // Each route counts its answers on its own tally, found once here, not per request (./metrics.ts).
  app.addHook('onRoute', (route) => {
    const tally = metrics.route(route.url ?? route.path);
    const count: onResponseHookHandler = (_request, reply, done) => {
      tally.record(reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    route.onResponse = route.onResponse === undefined ? [count] : [count, ...[route.onResponse].flat()];
  });
  const unmatched = metrics.route(UNMATCHED);
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) unmatched.record(reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.addHook('onRoute', known.onRoute);

  // Hooks on the request path are callback-style: an async hook costs a promise and a
  // microtask per request, measurable on small cached answers in the bench.
  app.addHook('onRequest', (request, _reply, done) => {
    const url = request.originalUrl;
    if (url.length > config.http.maxUrlLength) return done(ApiError.of('uriTooLong', url.length, config.http.maxUrlLength));
    if (!request.headers.host) return done(ApiError.of('missingHost'));
    done();
  });
  app.addHook('onRequest', plainOptionsHook(corsHeaders, sendError, known));

  const anyOrigin = config.http.corsOrigin === '*';
  await app.register(cors, { origin: anyOrigin ? '*' : config.http.corsOrigin.split(',').map((s) => s.trim()), ...CORS });
  // Before compression: digests are of the body as made (./validators.ts).
  addDigestValidators(app, `public, max-age=${config.http.cacheMaxAgeSeconds}`);
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  const auth = createAuthHooks(authenticate, config.http.rateLimitMax > 0);
  if (config.http.rateLimitMax > 0) {
    app.addHook('preParsing', auth.preParsing);
    await app.register(rateLimit, {
      max: config.http.rateLimitMax,
      timeWindow: config.http.rateLimitWindowSeconds * 1000,
      // Per authenticated key, by name; per address without a valid key (./authHooks.ts).
      keyGenerator: auth.limitKey,
      // In a worker of a node, the counts are the node's (./clusterRateLimit.ts).
      ...(node ? { store: node.rateLimitStore('api') } : {}),
      errorResponseBuilder: (_request, context) => {
        const seconds = Math.ceil(context.ttl / 1000);
        return ApiError.of('rateLimited', seconds).withHeaders({ 'Retry-After': String(seconds) });
      },
    });
  }
  await app.register(swagger, openapiOptions(config));
  if (config.auth.anonymousRead && config.http.rateLimitMax === 0) {
    app.log.warn(
      'auth.anonymousRead is on and http.rateLimitMax is 0: anyone may read without a key and without a limit. Set http.rateLimitMax to limit each address.',
    );
  }

  const hierarchies = createHierarchyAnswers(store);
  const packages = createPackageAnswers(store, config);
  const graphs = createItemGraphAnswers(store, config);
  // Every route needs a key unless it is added to the public context below, by decision
  // (docs/api.md "Operations without a key"; ./routeAccess.ts). Added in the order of /openapi.json.
  const { keyed, open, openPlugin, publicRoutes } = await createRouteAccess(app, auth.onRequest);
  routeAccesses.set(app, publicRoutes);
  registerItemRoutes(keyed, { config, hierarchies, packages, graphs });
  searches = registerEntityRoutes(keyed, { store, config, searches: node?.searches });
  // The item search family (docs/search.md), on the same runner as /entities.
  registerSearchRoutes(keyed, { config, search: searches });
  registerSolrRoutes(keyed, { config, search: searches });
  registerFacetValueRoutes(keyed, { config, search: searches });
  registerMltRoutes(keyed, { config, search: searches });
  registerOrganizationRoutes(keyed, { config, store });
  registerHealthRoutes(open, { store, searches });
  const metricsDeps = { config, metrics: node ? { ...metrics, text: node.metrics(() => metrics.json()) } : metrics };
  registerMetricsRoute(config.metrics.requireKey ? keyed : open, metricsDeps);
  registerChildrenRoutes(keyed, { store, config });
  registerPartRoutes(keyed, { store, config, graphs });
  registerPersonDataRoutes(keyed, { store, config });
  registerVersionRoute(open, { config });
  registerStatusRoute(keyed, { store, config });
  registerInstitutionRoutes(keyed, { store, config });
  const media = config.media.path === '' ? undefined : MediaDirectory.open(config.media.path);
  // Images are linked from pages and viewers that send no key (docs/decisions.md "API keys").
  registerBinaryRoutes(config.media.requireKey ? keyed : open, { config, media });
  registerIiifRoutes(keyed, { config, store, media });
  // Hierarchies as IIIF Collections, and IIIF Change Discovery (docs/iiif.md): keyed as the manifests are.
  registerIiifCollectionRoutes(keyed, { config, store });
  registerRootRoute(open, { config });
  // The OAI-PMH provider (docs/oai-pmh.md): no key, its own limit per address.
  if (config.oai.enabled)
    await openPlugin((scope) => registerOaiRoutes(scope, { config, store, rateLimitStore: node?.rateLimitStore('oai') }));
  // The W3C Reconciliation API (docs/reconciliation.md), on the same search runner: its
  // endpoint public (it asks for the key itself unless the manifest is asked for), its lookups keyed.
  const reconcile = createReconcileRoutes({ config, store, checkKey: auth.onRequest, search: searches });
  await openPlugin((scope) => reconcile.endpoint(scope));
  reconcile.lookups(keyed);
  // Pages for people (docs/pages.md), on the same search runner as the API.
  const runner = searches;
  // For search engines (docs/sitemaps.md): robots.txt and the sitemaps of the pages, no key.
  if (config.web.enabled) registerSitemapRoutes(open, { config, store });
  if (config.web.enabled)
    await openPlugin((scope) =>
      registerPageRoutes(scope, { config, store, media, engine: (s) => runner.engine(s), rateLimitStore: node?.rateLimitStore('pages') }),
    );
  await openPlugin(openapiRoute);
  await openPlugin(registerDocsRoutes);
  fastPath = createFastPath({
    config,
    // The fast path writes the same request log line as the routes (./requestLog.ts).
    log: requestLog?.answer,
    // What @fastify/cors adds to every answer when any origin may read it.
    cors: anyOrigin ? { allowOrigin: '*', exposeHeaders: CORS.exposedHeaders.join(', ') } : undefined,
    fallback: (req, res) => fastify!(req, res),
    authenticate,
    hierarchies,
    packages,
    record: (route, status, started) => metrics.record(route, status, (performance.now() - started) / 1000),
  });
  return app;
}
