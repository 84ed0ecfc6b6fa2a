/**
 * GET /: where to start (docs/api.md "GET /, GET /docs, GET /openapi.json"). An API client gets JSON with
 * links to the OpenAPI description, the interactive page and every
 * operation; a browser (an Accept that prefers text/html) a small page with
 * the same links. No key: it says nothing about the data.
 *
 * The operations are read from the OpenAPI description, so the list cannot
 * drift from the routes. Links keep the prefix the request came under (/2).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { VERSION } from '../../version.js';
import { escapeXmlAttr } from '../../formats/xmlEscape.js';
import { generationPrefixOf } from '../generation.js';
import { byHeaderValue, negotiate } from '../negotiate.js';
import { DOCS_PATH } from './openapi.js';

export interface RootRouteDeps {
  config: Config;
}

interface Operation {
  method: string;
  path: string;
  summary: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';
/** JSON first: `*∕*` and a missing preference give JSON; a browser's Accept prefers text/html. */
const offer = byHeaderValue((accept: string) => negotiate(accept, ['application/json', 'text/html']));

const rootSchema = {
  summary: 'Where to start: links to this description, the interactive page and every operation',
  description: 'JSON for API clients; a small HTML page for a browser (an Accept that prefers text/html). No key needed.',
  security: [],
  response: {
    200: {
      description: 'The links. Under /2 they keep the /2 prefix.',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              version: { type: 'string' },
              openapi: { type: 'string', description: 'URL path of the OpenAPI description' },
              docs: { type: 'string', description: 'URL path of the interactive page' },
              operations: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { method: { type: 'string' }, path: { type: 'string' }, summary: { type: 'string' } },
                },
              },
            },
          },
        },
        'text/html': { schema: { type: 'string' } },
      },
    },
    406: {
      description: 'The Accept header is missing or allows neither application/json nor text/html.',
      content: { 'application/json': { schema: { type: 'object' } } },
    },
  },
} as const;

/** GET operations of the description, in its order; the description itself and / are links of their own. */
function operationsOf(doc: { paths?: Record<string, Record<string, { summary?: string }>> }): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths ?? {})) {
    if (path === '/' || path === '/openapi.json') continue;
    const get = methods.get;
    if (get !== undefined) out.push({ method: 'GET', path, summary: get.summary ?? '' });
  }
  return out;
}

function page(prefix: string, operations: Operation[]): string {
  // Attribute escaping also does for text; every value is escaped, though none comes from a request.
  const e = escapeXmlAttr;
  const items = operations.map((o) => `<li><code>${e(o.method)} ${e(prefix + o.path)}</code>: ${e(o.summary)}</li>`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>heritage-api</title>
</head>
<body>
<h1>heritage-api ${e(VERSION)}</h1>
<p>A DDB-compatible cultural-heritage metadata API.</p>
<ul>
<li><a href="${e(prefix + DOCS_PATH)}">Interactive documentation</a></li>
<li><a href="${e(prefix)}/openapi.json">OpenAPI description</a> (JSON)</li>
</ul>
<h2>Operations</h2>
<ul>
${items}
</ul>
</body>
</html>
`;
}

export function registerRootRoute(app: FastifyInstance, deps: RootRouteDeps): void {
  const { config } = deps;
  // Made once per prefix on first use: the description exists only once the server is ready.
  const bodies = new Map<string, { json: string; html: string }>();
  const cacheControl = `public, max-age=${config.http.cacheMaxAgeSeconds}`;

  async function root(request: FastifyRequest, reply: FastifyReply) {
    const accept = request.headers.accept;
    let type: string | undefined;
    if (accept === undefined || accept.trim() === '') {
      if (config.http.requireAccept) throw ApiError.of('notAcceptable', 'application/json or text/html (none was sent)');
      type = 'application/json';
    } else {
      type = offer(accept);
      if (type === undefined) throw ApiError.of('notAcceptable', 'application/json or text/html');
    }
    const prefix = generationPrefixOf(request.originalUrl);
    let body = bodies.get(prefix);
    if (body === undefined) {
      const operations = operationsOf(app.swagger() as Parameters<typeof operationsOf>[0]);
      const links = { name: 'heritage-api', version: VERSION, openapi: `${prefix}/openapi.json`, docs: `${prefix}${DOCS_PATH}` };
      body = {
        json: JSON.stringify({ ...links, operations: operations.map((o) => ({ ...o, path: prefix + o.path })) }),
        html: page(prefix, operations),
      };
      bodies.set(prefix, body);
    }
    reply.header('Vary', 'Accept, Accept-Encoding').header('Cache-Control', cacheControl);
    return type === 'text/html'
      ? reply.header('Content-Type', HTML_TYPE).send(body.html)
      : reply.header('Content-Type', JSON_TYPE).send(body.json);
  }

  app.get('/', { schema: rootSchema }, root);
}
