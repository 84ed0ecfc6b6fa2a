/**
 * The pages for people on their paths (docs/pages.md): `/` and `/search` for a
 * browser (an Accept that prefers text/html over JSON), `/item/{id}`, `/item/{id}/tree`,
 * `/person/{gnd}`, `/facet/{field}`, `/persons` and the stylesheet. The pages themselves are src/web: this file only maps
 * requests to them.
 *
 * `/` and `/search` are shared with the API: their page routes carry the route constraint
 * `page: 'html'`, derived from Accept, so the router gives a browser the page and every
 * other client the API's own route of the same path (`/`: ./root.ts; `/search`: the item
 * search's route, and until it exists the 404 as before). The constrained routes are not
 * among the API's known paths (../allowedMethods.ts), so a JSON client's 404 or 405 stays
 * what it was. No key (the pages show what the operator loaded); their own rate limit per
 * client address (`web.rateLimitMax`), apart from the API's.
 */
import rateLimit from '@fastify/rate-limit';
import type { RateLimitStoreClass } from '../clusterRateLimit.js';
import type { FastifyInstance, FastifyRequest, RouteHandlerMethod, RouteShorthandOptions } from 'fastify';
import type { ConstraintStrategy, Handler, HTTPVersion, Req } from 'find-my-way';
import type { Config } from '../../config.js';
import type { Store } from '../../store/Store.js';
import { ApiError } from '../../errors.js';
import type { Engine } from '../../web/engine.js';
import type { MediaDirectory } from '../../media/mediaDirectory.js';
import { createPages, type PageAnswer, type PageDeps, type PageRequest, type Pages } from '../../web/pages.js';
import { createRenderer } from '../../web/render.js';
import { STYLESHEET } from '../../web/stylesheet.js';
import { FAVICON_SVG } from '../../web/favicon.js';
import { itemView } from '../../web/itemView.js';
import { itemBibtex } from '../../web/bibtex.js';
import { itemPath } from '../../web/frame.js';
import { originImages } from '../../web/mediaView.js';
import { VIEWER_SCRIPT } from '../../web/viewerScript.js';
import { isValidItemId } from '../../domain/itemIds.js';
import { edmInSyntax } from '../itemGraphAnswers.js';
import type { RdfType } from '../linkedData.js';
import { itemManifest, iiifBase, sendManifest } from './iiif.js';
import { OPENSEADRAGON_STYLE_HASH, openSeadragonAssets } from './openSeadragonAssets.js';
import type { Query } from '../../web/searchState.js';
import { apiErrorOf } from '../errorMapping.js';
import { originOf } from '../requestOrigin.js';
import { byHeaderValue, negotiate } from '../negotiate.js';
import { bodyTag, weakEtag } from '../validators.js';

/** The manifest with each painting body the page shows from its origin (`/binary/…` path → URL) painted from there. */
function paintedFrom(body: string, serviceUrl: string, origins: ReadonlyMap<string, string>): string {
  if (origins.size === 0) return body;
  const byUrl = new Map([...origins].map(([path, url]) => [serviceUrl + encodeURI(path), url]));
  const manifest = JSON.parse(body) as { items?: Array<{ items?: Array<{ items?: Array<{ body?: { id?: string } }> }> }> };
  for (const canvas of manifest.items ?? [])
    for (const page of canvas.items ?? [])
      for (const annotation of page.items ?? []) {
        const url = annotation.body?.id === undefined ? undefined : byUrl.get(annotation.body.id);
        if (url !== undefined) annotation.body!.id = url;
      }
  return JSON.stringify(manifest);
}

export interface PageRouteDeps {
  config: Config;
  store: PageDeps['store'] & Pick<Store, 'getItemDocument' | 'getAncestry'>;
  engine: Engine;
  /** The operator's media directory; undefined when media.path is "". */
  media?: MediaDirectory | undefined;
  /** In a worker of `serve --workers N`: the limiter's store, counting for the node (../clusterRateLimit.ts). */
  rateLimitStore?: RateLimitStoreClass | undefined;
}

/** The route constraint of the page routes that share a path with the API. */
export const PAGE_CONSTRAINT = 'page';

const HTML_TYPE = 'text/html; charset=utf-8';
const CSS_TYPE = 'text/css; charset=utf-8';
const JS_TYPE = 'text/javascript; charset=utf-8';
const SVG_TYPE = 'image/svg+xml';
const JSON_TYPE = 'application/json; charset=utf-8';
/** BibTeX's type as citation managers and browsers know it (not registered with IANA). */
const BIBTEX_TYPE = 'application/x-bibtex; charset=utf-8';

/** The record's downloads at /item/{id}/{file}: the stored package, or its EDM graph in an RDF syntax. */
const RECORD_DOWNLOADS: ReadonlyArray<{ file: string; format: 'json' | 'xml'; type: string; rdf?: RdfType }> = [
  { file: 'record.json', format: 'json', type: JSON_TYPE },
  { file: 'record.xml', format: 'xml', type: 'application/xml; charset=utf-8' },
  { file: 'edm.rdf', format: 'xml', type: 'application/rdf+xml; charset=utf-8', rdf: 'application/rdf+xml' },
  { file: 'edm.ttl', format: 'xml', type: 'text/turtle; charset=utf-8', rdf: 'text/turtle' },
  { file: 'edm.jsonld', format: 'xml', type: 'application/ld+json; charset=utf-8', rdf: 'application/ld+json' },
  { file: 'edm.nt', format: 'xml', type: 'application/n-triples; charset=utf-8', rdf: 'application/n-triples' },
];

/** 'html' when the Accept prefers text/html to JSON (a browser's does), as ./root.ts decides. */
const prefersHtml = byHeaderValue((accept: string) => negotiate(accept, ['application/json', 'text/html']) === 'text/html');

function pageConstraintStrategy(): ConstraintStrategy<HTTPVersion.V1, string> {
  const handlers = new Map<string, Handler<HTTPVersion.V1>>();
  return {
    name: PAGE_CONSTRAINT,
    storage: () => ({
      get: (value: string) => handlers.get(value) ?? null,
      set: (value: string, store: Handler<HTTPVersion.V1>) => void handlers.set(value, store),
    }),
    deriveConstraint: (req: Req<HTTPVersion.V1>) => {
      const accept = req.headers.accept;
      return typeof accept === 'string' && prefersHtml(accept) ? 'html' : 'api';
    },
    // A request for the API finds the unconstrained route of the path, or none (404).
    mustMatchWhenDerived: false,
  };
}

/**
 * The CSP of the pages (docs/pages.md "Built for the web as it is"): scripts only from files
 * of our own (the viewer, /assets/), none inline; images and sound from here, from where /binary
 * redirects, and from the origins media.origins names for records built from EDM.
 */
function securityHeaders(config: Config): Record<string, string> {
  const origins = [...(config.media.baseUrl === '' ? [] : [new URL(config.media.baseUrl).origin]), ...config.media.origins];
  const media = ["'self'", ...new Set(origins)].join(' ');
  return {
    'Content-Security-Policy': `default-src 'none'; img-src ${media}; media-src ${media}; style-src 'self' '${OPENSEADRAGON_STYLE_HASH}'; script-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  };
}

function requestOf(request: FastifyRequest): PageRequest {
  return { query: request.query as Query, acceptLanguage: request.headers['accept-language'], origin: originOf(request) ?? '' };
}

/** A route handler that answers with a page: its status, HTML, Vary and the pages' security headers. */
export function pageHandler(
  run: (req: PageRequest, request: FastifyRequest) => Promise<PageAnswer>,
  headers: Readonly<Record<string, string>>,
  vary = 'Accept-Language',
): RouteHandlerMethod {
  return async (request, reply) => {
    const page = await run(requestOf(request), request);
    return reply.code(page.status).headers(headers).header('Vary', vary).header('Content-Type', HTML_TYPE).send(page.html);
  };
}

/**
 * The handler of the results page, `/search` for a browser (an Accept that prefers
 * text/html): registered here under the page constraint; the API's `/search` route answers
 * every other Accept.
 */
export function searchPageHandler(pages: Pages, headers: Readonly<Record<string, string>>): RouteHandlerMethod {
  return pageHandler((req) => pages.search(req), headers, 'Accept, Accept-Language');
}

export async function registerPageRoutes(app: FastifyInstance, deps: PageRouteDeps): Promise<void> {
  const { config } = deps;
  const mediaSource = { directory: deps.media, baseUrl: config.media.baseUrl.replace(/\/+$/, ''), origins: config.media.origins };
  const pages = createPages({ store: deps.store, engine: deps.engine, render: createRenderer(), media: mediaSource });
  const headers = securityHeaders(config);
  const cacheControl = `public, max-age=${config.http.cacheMaxAgeSeconds}`;
  app.addConstraintStrategy(pageConstraintStrategy());

  await app.register(async (scope) => {
    // One bucket per address for every page (the plugin's handler keeps one store).
    if (!scope.hasDecorator('rateLimit'))
      await scope.register(rateLimit, { global: false, ...(deps.rateLimitStore ? { store: deps.rateLimitStore } : {}) });
    const limit =
      config.web.rateLimitMax > 0
        ? scope.rateLimit({
            max: config.web.rateLimitMax,
            timeWindow: config.web.rateLimitWindowSeconds * 1000,
            keyGenerator: (request) => `page:${request.ip}`,
            errorResponseBuilder: (_request, context) => {
              const seconds = Math.ceil(context.ttl / 1000);
              return ApiError.of('rateLimited', seconds).withHeaders({ 'Retry-After': String(seconds) });
            },
          })
        : undefined;
    // Every failure on a page's path (the rate limit's 429, a query the parser or the search
    // refuses, the 503 of a store that cannot answer now) is a page too, with the status, headers
    // and message of the catalog's answer (../errorMapping.ts); a 500 goes to the app's handler.
    scope.setErrorHandler((raw, request, reply) => {
      const error = apiErrorOf(raw, request, config.search);
      // The catalog's body, written (and logged once) by the app's handler.
      if (error.status === 500) throw error;
      const retryAfter = error.headers['Retry-After'];
      const page = pages.error(error.status, error.message, requestOf(request), retryAfter === undefined ? undefined : Number(retryAfter));
      return reply.code(page.status).headers(headers).headers(error.headers).header('Content-Type', HTML_TYPE).send(page.html);
    });
    const options = (constrained: boolean): RouteShorthandOptions => ({
      schema: { hide: true },
      // The API's limit (per key, ../authHooks.ts) does not count pages: theirs is `limit`.
      config: { rateLimit: false, ignoresQuery: true, digestValidators: true },
      ...(limit === undefined ? {} : { onRequest: limit }),
      ...(constrained ? { constraints: { [PAGE_CONSTRAINT]: 'html' } } : {}),
    });
    const param = (request: FastifyRequest, name: string) => (request.params as Record<string, string>)[name]!;
    scope.get(
      '/',
      options(true),
      pageHandler((req) => pages.home(req), headers, 'Accept, Accept-Language'),
    );
    scope.get('/search', options(true), searchPageHandler(pages, headers));
    scope.get(
      '/places',
      options(false),
      pageHandler((req) => pages.places(req), headers),
    );
    scope.get(
      '/item/:id',
      options(false),
      pageHandler((req, request) => pages.item(param(request, 'id'), req), headers),
    );
    scope.get(
      '/item/:id/tree',
      options(false),
      pageHandler((req, request) => pages.tree(param(request, 'id'), req), headers),
    );
    scope.get(
      '/person/:gnd',
      options(false),
      pageHandler((req, request) => pages.person(param(request, 'gnd'), req), headers),
    );
    scope.get(
      '/facet/:field',
      options(false),
      pageHandler((req, request) => pages.facetValues(param(request, 'field'), req), headers),
    );
    scope.get(
      '/persons',
      options(false),
      pageHandler((req) => pages.persons(req), headers),
    );
    // Files of the pages: the stylesheet, the viewer (our script and OpenSeadragon's, from the
    // npm package, never a CDN: docs/pages.md "Viewer"), the icon. Not counted by the limit.
    const asset = (path: string, type: string, body: Buffer) => {
      const tag = weakEtag(bodyTag(body));
      scope.get(path, { ...options(false), config: { rateLimit: false, ignoresQuery: true } }, (request, reply) => {
        reply
          .header('Content-Type', type)
          .header('Cache-Control', cacheControl)
          .header('ETag', tag)
          .header('X-Content-Type-Options', 'nosniff');
        if (request.headers['if-none-match'] === tag) return reply.code(304).removeHeader('Content-Type').send();
        return reply.send(body);
      });
    };
    asset('/assets/pages.css', CSS_TYPE, Buffer.from(STYLESHEET));
    asset('/assets/viewer.js', JS_TYPE, Buffer.from(VIEWER_SCRIPT));
    const seadragon = openSeadragonAssets();
    asset('/assets/openseadragon.min.js', JS_TYPE, seadragon.script);
    for (const [name, png] of seadragon.images) asset(`/assets/openseadragon/images/${name}`, 'image/png', png);
    asset('/favicon.svg', SVG_TYPE, Buffer.from(FAVICON_SVG));
    asset('/favicon.ico', SVG_TYPE, Buffer.from(FAVICON_SVG));

    // The item's manifest for the viewer, without a key as the page itself (docs/pages.md "Viewer");
    // the API's /items/{id}/iiif is the same manifest, keyed.
    scope.get('/item/:id/iiif', options(false), async (request, reply) => {
      const id = param(request, 'id');
      if (!isValidItemId(id)) throw ApiError.of('invalidItemId', id);
      const { serviceUrl, base } = iiifBase(request, '/item/', "manifest's URLs");
      const manifest = await itemManifest({ config, store: deps.store, media: deps.media }, id, {
        manifestUrl: `${base}/item/${encodeURIComponent(id)}/iiif`,
        serviceUrl,
        base,
      });
      // A record built from EDM whose pictures the page shows from their origin: the viewer paints them from there too.
      const doc = await deps.store.getItemDocument(id, 'json');
      const origins =
        doc === undefined
          ? new Map<string, string>()
          : await originImages(itemView(id, JSON.parse(doc.body.toString('utf8'))).images, mediaSource);
      return sendManifest(request, reply, { ...manifest, body: paintedFrom(manifest.body, serviceUrl, origins) }, JSON_TYPE, cacheControl);
    });
    // The record to download (docs/pages.md "Cite and share"): the package as JSON and XML, its EDM graph in each RDF syntax.
    for (const d of RECORD_DOWNLOADS) {
      scope.get(`/item/:id/${d.file}`, options(false), async (request, reply) => {
        const id = param(request, 'id');
        if (!isValidItemId(id)) throw ApiError.of('invalidItemId', id);
        const doc = await deps.store.getItemDocument(id, d.format);
        if (doc === undefined) throw ApiError.of('itemNotFound', id);
        if (doc.blockedReason !== null) throw ApiError.of('itemBlocked', id, doc.blockedReason);
        const body = d.rdf === undefined ? doc.body : Buffer.from(await edmInSyntax(doc.body.toString('utf8'), id, d.rdf));
        return reply
          .header('Content-Type', d.type)
          .header('Content-Disposition', `attachment; filename="${id}-${d.file}"`)
          .header('Cache-Control', cacheControl)
          .header('X-Content-Type-Options', 'nosniff')
          .send(body);
      });
    }
    // The item's BibTeX entry as the page shows it (docs/pages.md "Cite and share"), found and blocked as the record's downloads.
    scope.get('/item/:id/cite.bib', options(false), async (request, reply) => {
      const id = param(request, 'id');
      if (!isValidItemId(id)) throw ApiError.of('invalidItemId', id);
      const doc = await deps.store.getItemDocument(id, 'json');
      if (doc === undefined) throw ApiError.of('itemNotFound', id);
      if (doc.blockedReason !== null) throw ApiError.of('itemBlocked', id, doc.blockedReason);
      const view = itemView(id, JSON.parse(doc.body.toString('utf8')));
      const body = itemBibtex(view, `${originOf(request) ?? ''}${itemPath(id)}`, new Date());
      return reply
        .header('Content-Type', BIBTEX_TYPE)
        .header('Content-Disposition', `attachment; filename="${id}.bib"`)
        .header('Cache-Control', cacheControl)
        .header('X-Content-Type-Options', 'nosniff')
        .send(body);
    });
  });
}
