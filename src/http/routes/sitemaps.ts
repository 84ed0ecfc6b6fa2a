/**
 * For search engines (docs/sitemaps.md): `/robots.txt`, naming the sitemap; `/sitemap.xml`, a
 * sitemap index (sitemaps.org protocol 0.9) of the pages `/sitemap/items-N.xml` and
 * `/sitemap/persons-N.xml`, each listing at most `web.sitemapPageSize` (≤ 50,000) page URLs with
 * their `lastmod`. No key, as the pages need none; served while the pages are (`web.enabled`).
 *
 * Nothing here holds the store's ids: the store counts the pages (SitemapStore.sitemapPages)
 * and hands a page's entries over by keyset, a chunk at a time. The page list is kept per data
 * version; bodies are kept per data version and origin in a bounded cache.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { ApiError } from '../../errors.js';
import { sitemapIndexXml, URLSET_END, URLSET_START, urlsetEntry } from '../../formats/sitemapXml.js';
import { LruCache } from '../../lruCache.js';
import type { SitemapKind, SitemapPage, Store } from '../../store/Store.js';
import { requestOrigin } from '../requestOrigin.js';
import { sendTagged, tagged, type TaggedBody } from '../validators.js';

export interface SitemapRouteDeps {
  config: Config;
  store: Pick<Store, 'dataVersion' | 'sitemapPages' | 'listSitemapEntries'>;
}

/** Entries read from the store at a time while a page is written. */
const CHUNK = 5000;
/** Sitemap bodies kept (a full page of 50,000 URLs is about 4 MB). */
const BODY_CACHE_BYTES = 24 * 1024 * 1024;

const KINDS: Readonly<Record<string, SitemapKind>> = { items: 'item', persons: 'person' };
/** `items-1.xml`: the kind and the page number, from 1, without leading zeros. */
const PAGE_NAME = /^(items|persons)-([1-9][0-9]{0,8})\.xml$/;
const GND_PREFIX = 'http://d-nb.info/gnd/';

/** The page of an entry: /item/{id}, or /person/{gnd} for a GND person. */
function pagePath(kind: SitemapKind, id: string): string {
  return kind === 'item' ? `/item/${encodeURIComponent(id)}` : `/person/${encodeURIComponent(id.slice(GND_PREFIX.length))}`;
}

const XML_TYPE = 'application/xml; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';

export function registerSitemapRoutes(app: FastifyInstance, deps: SitemapRouteDeps): void {
  const { store, config } = deps;
  const pageSize = config.web.sitemapPageSize;
  const cacheControl = `public, max-age=${config.http.cacheMaxAgeSeconds}`;
  const bodies = new LruCache<TaggedBody>(BODY_CACHE_BYTES, (b) => 64 + b.body.length);
  let pageLists: { version: string; pages: Record<SitemapKind, SitemapPage[]> } | undefined;

  /** The pages of both kinds at this data version, counted by the store once per version. */
  async function pagesAt(version: string): Promise<Record<SitemapKind, SitemapPage[]>> {
    if (pageLists?.version === version) return pageLists.pages;
    const [item, person] = await Promise.all([store.sitemapPages('item', pageSize), store.sitemapPages('person', pageSize)]);
    pageLists = { version, pages: { item, person } };
    return pageLists.pages;
  }

  async function cached(key: string, make: () => Promise<string>): Promise<TaggedBody> {
    const hit = bodies.get(key);
    if (hit !== undefined) return hit;
    const made = tagged(Buffer.from(await make()));
    bodies.set(key, made);
    return made;
  }

  async function index(origin: string, version: string): Promise<string> {
    const pages = await pagesAt(version);
    const sitemaps = (['item', 'person'] as const).flatMap((kind) =>
      pages[kind].map((p, i) => ({
        loc: `${origin}/sitemap/${kind === 'item' ? 'items' : 'persons'}-${i + 1}.xml`,
        lastModified: p.lastModified,
      })),
    );
    return sitemapIndexXml(sitemaps);
  }

  async function page(origin: string, version: string, kind: SitemapKind, n: number): Promise<string | undefined> {
    const pages = (await pagesAt(version))[kind];
    const here = pages[n - 1];
    if (here === undefined) return undefined;
    const before = pages[n]?.firstId;
    const parts = [URLSET_START];
    let from = here.firstId;
    let after = false;
    let written = 0;
    // At most a page: the entries from its first id to the next page's, by keyset, a chunk at a time.
    while (written < pageSize) {
      const limit = Math.min(CHUNK, pageSize - written);
      const entries = await store.listSitemapEntries(kind, { from, after, before, limit });
      for (const e of entries) parts.push(urlsetEntry({ loc: `${origin}${pagePath(kind, e.id)}`, lastModified: e.lastModified }));
      written += entries.length;
      if (entries.length < limit) break;
      from = entries[entries.length - 1]!.id;
      after = true;
    }
    parts.push(URLSET_END);
    return parts.join('');
  }

  const options = { schema: { hide: true } };

  app.get('/robots.txt', options, async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = requestOrigin(request);
    const body = await cached(`robots\u0000${origin}`, async () =>
      [
        '# heritage-api: the pages for people may be crawled; the API answers with a key only (docs/sitemaps.md).',
        'User-agent: *',
        // Searches are endless combinations of filters; the sitemap names every item and person page instead.
        'Disallow: /search',
        'Disallow: /items/',
        'Disallow: /entities',
        'Disallow: /2/',
        'Allow: /',
        '',
        `Sitemap: ${origin}/sitemap.xml`,
        '',
      ].join('\n'),
    );
    reply.header('Content-Type', TEXT_TYPE);
    return sendTagged(request, reply, body, cacheControl);
  });

  app.get('/sitemap.xml', options, async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = requestOrigin(request);
    const version = await store.dataVersion();
    const body = await cached(`index\u0000${version}\u0000${origin}`, () => index(origin, version));
    reply.header('Content-Type', XML_TYPE);
    return sendTagged(request, reply, body, cacheControl);
  });

  app.get<{ Params: { name: string } }>('/sitemap/:name', options, async (request, reply) => {
    const name = request.params.name;
    const m = PAGE_NAME.exec(name);
    if (m === null) throw ApiError.of('sitemapNotFound', name);
    const kind = KINDS[m[1]!]!;
    const origin = requestOrigin(request);
    const version = await store.dataVersion();
    const key = `${name}\u0000${version}\u0000${origin}`;
    let body = bodies.get(key);
    if (body === undefined) {
      const text = await page(origin, version, kind, Number(m[2]));
      if (text === undefined) throw ApiError.of('sitemapNotFound', name);
      body = tagged(Buffer.from(text));
      bodies.set(key, body);
    }
    reply.header('Content-Type', XML_TYPE);
    return sendTagged(request, reply, body, cacheControl);
  });
}
