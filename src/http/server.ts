/**
 * Builds the Fastify application: plugins, hooks, error mapping, routes.
 * This folder is the only place that knows HTTP; everything it needs comes in
 * as arguments (config, store).
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type onRequestHookHandler } from 'fastify';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import { hashApiKey } from '../apiKeys.js';
import type { Store } from '../store/Store.js';
import { createAuthenticator } from './auth.js';
import { installErrorHandling, sendError } from './errorHandler.js';
import { createFastPath, type FastPath } from './fastPath.js';
import { createHierarchyAnswers } from './hierarchyAnswers.js';
import { createPackageAnswers } from './packageAnswers.js';
import { createLogSink, type LogSink } from './logSink.js';
import { createAnswerLog, logSerializers, requestId } from './requestLog.js';
import { registerEntityRoutes } from './routes/entities.js';
import { registerItemRoutes } from './routes/items.js';
import { openapiRoute, OPENAPI_INFO } from './routes/openapi.js';

export interface ServerOptions {
  /** A destination for the logs, written line by line; default stdout (./logSink.ts). Tests pass a stream to read them. */
  logStream?: NodeJS.WritableStream;
  /** false switches logging off (the CLI's --quiet and most tests). */
  logging?: boolean;
}

const CORS = {
  methods: ['GET', 'HEAD', 'OPTIONS'],
  allowedHeaders: ['Authorization', 'Accept', 'If-None-Match', 'If-Modified-Since'],
  exposedHeaders: ['ETag', 'Last-Modified', 'Retry-After', 'WWW-Authenticate', 'Content-Encoding'],
  maxAge: 86400,
};

/** Node's request listener of each app: the fast path, then Fastify. Serve gives it to its HTTPS server too. */
const listeners = new WeakMap<FastifyInstance, RequestListener>();

export function requestListenerOf(app: FastifyInstance): RequestListener {
  const listener = listeners.get(app);
  if (listener === undefined) throw new Error('requestListenerOf: the app was not made by buildServer');
  return listener;
}

export async function buildServer(config: Config, store: Store, options: ServerOptions = {}): Promise<FastifyInstance> {
  const logging = options.logging ?? true;
  const logSink: LogSink | undefined = logging ? createLogSink(options.logStream) : undefined;
  // Set once the routes exist; requests only arrive after listen().
  let fastPath: FastPath | undefined;
  let fastify: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const listener: RequestListener = (req, res) => {
    if (fastPath === undefined || !fastPath(req, res)) fastify!(req, res);
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
    trustProxy: config.server.trustProxy,
    // GET-only API: no request bodies.
    bodyLimit: 1024,
    // Long ids must reach our own checks (414 / a clear 400) instead of failing in the router.
    routerOptions: { maxParamLength: Number.MAX_SAFE_INTEGER },
    // Errors raised before routing (a malformed URL) get our error body too.
    frameworkErrors: (error, request, reply) => sendError(request, reply, ApiError.of('badRequest', error.message)),
    // Our own server, so that the fast path (./fastPath.ts) sees requests before Fastify;
    // the timeouts are those Fastify sets on the servers it makes itself.
    serverFactory: (handler, opts) => {
      fastify = handler;
      // Node answers a missing Host with a bare 400; we want our error body (decisions.md "Requests").
      const server: Server = createServer({ requireHostHeader: false }, listener);
      server.keepAliveTimeout = opts.keepAliveTimeout as number;
      server.requestTimeout = opts.requestTimeout as number;
      server.setTimeout(opts.connectionTimeout as number);
      return server;
    },
  });
  listeners.set(app, listener);
  if (logSink) app.addHook('onClose', (_app, done) => (logSink.close(), done()));

  installErrorHandling(app);

  // Hooks on the request path are callback-style: an async hook costs a promise and a
  // microtask per request, measurable on small cached answers (issue #5).
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.url.length > config.http.maxUrlLength) return done(ApiError.of('uriTooLong', request.url.length, config.http.maxUrlLength));
    if (!request.headers.host) return done(ApiError.of('missingHost'));
    done();
  });

  const anyOrigin = config.http.corsOrigin === '*';
  await app.register(cors, { origin: anyOrigin ? '*' : config.http.corsOrigin.split(',').map((s) => s.trim()), ...CORS });
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  if (config.http.rateLimitMax > 0) {
    await app.register(rateLimit, {
      max: config.http.rateLimitMax,
      timeWindow: config.http.rateLimitWindowSeconds * 1000,
      // Per key (hashed, so that the limiter's memory never holds a key); per address without one.
      keyGenerator: (request) => {
        const q = (request.query as Record<string, unknown> | undefined)?.oauth_consumer_key;
        const h = request.headers.authorization;
        return typeof q === 'string' ? hashApiKey(q) : h ? hashApiKey(h) : request.ip;
      },
      errorResponseBuilder: (_request, context) => {
        const seconds = Math.ceil(context.ttl / 1000);
        return ApiError.of('rateLimited', seconds).withHeaders({ 'Retry-After': String(seconds) });
      },
    });
  }
  await app.register(swagger, { openapi: OPENAPI_INFO });

  const authenticate = createAuthenticator(store);
  const onRequest: onRequestHookHandler = (request, _reply, done) => {
    try {
      authenticate(request);
    } catch (error) {
      return done(error as Error);
    }
    done();
  };
  const hierarchies = createHierarchyAnswers(store);
  const packages = createPackageAnswers(store, config);
  registerItemRoutes(app, { config, onRequest, hierarchies, packages });
  registerEntityRoutes(app, { store, config, onRequest });
  await app.register(openapiRoute);
  fastPath = createFastPath({
    config,
    // The fast path writes the request log lines Fastify would (./requestLog.ts).
    log: logSink ? createAnswerLog(app.log, logSink) : undefined,
    // What @fastify/cors adds to every answer when any origin may read it.
    cors: anyOrigin ? { allowOrigin: '*', exposeHeaders: CORS.exposedHeaders.join(', ') } : undefined,
    authenticate,
    hierarchies,
    packages,
  });
  return app;
}
