/**
 * The OAI-PMH 2.0 provider on `/oai` (and `/2/oai`, ../generation.ts): GET with the
 * arguments in the query, POST with them as application/x-www-form-urlencoded (OAI-PMH 2.0
 * section 3.1.1). Open without a key whatever auth.anonymousRead says (harvesters send
 * none), with its own limit per client address (oai.rateLimitMax). Every answer of the
 * protocol is status 200 with an OAI-PMH document, errors included (section 3.6); what the
 * server itself refuses (the rate limit, a store gone away) keeps its HTTP status and
 * Retry-After, which harvesters honour (section 3.1.1.2 leaves flow control to HTTP).
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod, RouteShorthandOptions } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import type { Store } from '../../store/Store.js';
import type { RateLimitStoreClass } from '../clusterRateLimit.js';
import { createOaiProvider, type OaiContext } from '../oai/provider.js';

export interface OaiRouteDeps {
  config: Config;
  store: Store;
  /** In a worker of `serve --workers N`: the limiter's store, counting for the node (../clusterRateLimit.ts). */
  rateLimitStore?: RateLimitStoreClass | undefined;
}

const XML_TYPE = 'text/xml; charset=utf-8';
const FORM_TYPE = 'application/x-www-form-urlencoded';
/** A POST body: the arguments only, a resumption token the longest of them. */
const FORM_BYTES = 16 * 1024;

/** The request's arguments, repeats included (a repeated argument is the harvester's error to hear about). */
function argumentsOf(request: FastifyRequest): Array<[string, string]> {
  if (request.method === 'POST') return [...new URLSearchParams(typeof request.body === 'string' ? request.body : '')];
  const url = request.raw.url ?? '';
  const q = url.indexOf('?');
  return q < 0 ? [] : [...new URLSearchParams(url.slice(q + 1))];
}

function contextOf(request: FastifyRequest, reply: FastifyReply): OaiContext {
  const path = request.originalUrl.split('?')[0]!;
  const host = request.host;
  // The host without its port: [v6]:port and name:port alike.
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
  // A connection kept open brings the next request to this process (node:cluster hands out connections, not requests).
  return { baseUrl: `${request.protocol}://${host}${path}`, host: name.toLowerCase(), keepAlive: reply.raw.shouldKeepAlive };
}

export async function registerOaiRoutes(app: FastifyInstance, deps: OaiRouteDeps): Promise<void> {
  const { config } = deps;
  const provider = createOaiProvider(deps.store, config);
  await app.register(async (scope) => {
    if (!scope.hasDecorator('rateLimit'))
      await scope.register(rateLimit, { global: false, ...(deps.rateLimitStore ? { store: deps.rateLimitStore } : {}) });
    const limit =
      config.oai.rateLimitMax > 0
        ? scope.rateLimit({
            max: config.oai.rateLimitMax,
            timeWindow: config.oai.rateLimitWindowSeconds * 1000,
            keyGenerator: (request) => `oai:${request.ip}`,
            errorResponseBuilder: (_request, context) => {
              const seconds = Math.ceil(context.ttl / 1000);
              return ApiError.of('rateLimited', seconds).withHeaders({ 'Retry-After': String(seconds) });
            },
          })
        : undefined;
    // The arguments as a string, parsed by argumentsOf; any other body is an OAI-PMH badArgument, not a 415.
    scope.addContentTypeParser(FORM_TYPE, { parseAs: 'string', bodyLimit: FORM_BYTES }, (_request, body, done) => done(null, body));
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: FORM_BYTES }, (_request, _body, done) => done(null, undefined));
    const handler: RouteHandlerMethod = async (request, reply) => {
      const contentType = String(request.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      const context = contextOf(request, reply);
      const xml =
        request.method === 'POST' && contentType !== FORM_TYPE
          ? provider.refuse(
              `A POST request carries its arguments as ${FORM_TYPE} (OAI-PMH 2.0 section 3.1.1.2), not as ${contentType || 'a body without Content-Type'}.`,
              context,
            )
          : await provider.answer(argumentsOf(request), context);
      return reply.code(200).header('Content-Type', XML_TYPE).header('Cache-Control', 'no-store').send(xml);
    };
    const options: RouteShorthandOptions = {
      schema: { hide: true },
      // The API's key check and limit are not the provider's; its arguments are checked as OAI-PMH's (../oai/requestArguments.ts).
      config: { rateLimit: false, ignoresQuery: true },
      ...(limit === undefined ? {} : { onRequest: limit }),
    };
    scope.get('/oai', options, handler);
    scope.post('/oai', options, handler);
  });
}
