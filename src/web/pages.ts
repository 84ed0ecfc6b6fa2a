/**
 * The pages for people (docs/pages.md): home, search results, item, hierarchy tree and person.
 * Each page is a function from what the request asked (path parameters, query, language
 * preference) to a status and an HTML document; src/http/routes/pages.ts puts them on
 * paths. Data comes from the store (packages, hierarchy, load status) and the search
 * engine (searches, facets, counts). Nothing here knows HTTP.
 */
import { ALL, type QueryNode } from '../query/ast.js';
import { parseQuery } from '../query/parse.js';
import { queryFields } from '../search/engine/schema.js';
import { itemSchema } from '../search/schemas/itemSchema.js';
import type { EngineAnswer } from '../search/indexHost.js';
import type { FacetCounts } from '../search/engine/types.js';
import type { Store } from '../store/Store.js';
import { VERSION } from '../version.js';
import type { Engine } from './engine.js';
import { licenseName, readableDate, readableFields } from './fieldValues.js';
import { itemView } from './itemView.js';
import { canShow, shownFiles, shownImages, type MediaSource } from './mediaView.js';
import { itemMeta, personMeta } from './pageMeta.js';
import { treeOf } from './treeView.js';
import { chooseLang, facetLabel, facetValueLabel, format, MESSAGES, type Lang, type Messages } from './messages.js';
import type { Renderer } from './render.js';
import {
  engineFilters,
  ENGINE_SORT,
  MAX_PAGE,
  readSearchState,
  ROWS,
  searchUrl,
  SORTS,
  type Query,
  type SearchState,
} from './searchState.js';
import { personView, gndOfPersonId, gndUri, isGndNumber, type PersonView } from './personView.js';

/** The RDF syntaxes of an item's EDM graph at /items/{id} (src/http/linkedData.ts). */
const LINKED_DATA_TYPES = ['application/ld+json', 'text/turtle', 'application/n-triples', 'application/rdf+xml'] as const;
/** Those of a person at /entities/{gnd}. */
const PERSON_DATA_TYPES = ['application/ld+json', 'text/turtle', 'application/n-triples'] as const;

export interface PageRequest {
  query: Query;
  acceptLanguage: string | undefined;
  /** `https://host`, the origin the request was sent to, for absolute URLs in the head; '' when unknown. */
  origin?: string;
}

export interface PageAnswer {
  status: number;
  html: string;
}

export interface PageDeps {
  store: Pick<Store, 'getItemDocument' | 'getAncestry' | 'getChildren' | 'listLoads' | 'listHarvests'>;
  engine: Engine;
  render: Renderer;
  /** Where the item's media can be shown from (./mediaView.ts). */
  media: MediaSource;
}

/** Facets shown beside the results, in this order. */
const RESULT_FACETS = ['type_fct', 'sector_fct', 'provider_fct', 'place_fct', 'affiliate_fct', 'keywords_fct', 'language_fct'] as const;
const FACET_VALUES = 8;
const PERSON_ROWS = 5;
const CHILD_ROWS = 20;
const TREE_ROWS = 50;
const TREE_LEVELS = 20;
const ITEM_FIELDS = queryFields(itemSchema);

interface ResultDoc {
  id: string;
  title: string;
  subtitle: string;
  label: string;
  thumbnail: string;
  media: string;
}

/** The query parameters the pages read (./searchState.ts; `cpage` pages an item's children); `lang` is set apart. */
const PAGE_PARAMETERS: ReadonlySet<string> = new Set(['q', 'query', 'f', 'sort', 'page', 'cpage']);

/** What every page's layout needs: language, words, the link to the other language. */
interface Frame {
  lang: Lang;
  t: Messages;
  /** Appends `lang=` when the URL named the language, so that links keep it. */
  link: (path: string) => string;
  switchUrl: string;
  otherLang: Lang;
  q: string;
  title: string;
  version: string;
  fmt: typeof format;
  /** The language when the URL named it (the search form then keeps it), else undefined. */
  langParam: Lang | undefined;
}

function frame(path: string, req: PageRequest, title: (t: Messages) => string, q = ''): Frame {
  const lang = chooseLang(first(req.query.lang), req.acceptLanguage);
  const explicit = first(req.query.lang) === lang;
  const t = MESSAGES[lang];
  const otherLang: Lang = lang === 'de' ? 'en' : 'de';
  const link = (p: string) => (explicit ? withParam(p, 'lang', lang) : p);
  const here = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query)) {
    // Only what the pages read: anything else (an API key a visitor pasted) stays out of links.
    if (!PAGE_PARAMETERS.has(k) || v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) here.append(k, one);
  }
  here.append('lang', otherLang);
  return {
    lang,
    t,
    link,
    switchUrl: `${path}?${here.toString()}`,
    otherLang,
    q,
    title: title(t),
    version: VERSION,
    fmt: format,
    langParam: explicit ? lang : undefined,
  };
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function withParam(path: string, name: string, value: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(value)}`;
}

function parseDocs<T>(answer: EngineAnswer): T[] {
  return answer.docs.map((d) => JSON.parse(d) as T);
}

export function itemPath(id: string): string {
  return `/item/${encodeURIComponent(id)}`;
}

export interface Pages {
  home(req: PageRequest): Promise<PageAnswer>;
  search(req: PageRequest): Promise<PageAnswer>;
  item(id: string, req: PageRequest): Promise<PageAnswer>;
  tree(id: string, req: PageRequest): Promise<PageAnswer>;
  person(gnd: string, req: PageRequest): Promise<PageAnswer>;
  /**
   * A page for an error the server answers on a page's path: its status and message; a 429
   * of the pages' rate limit says instead, in the visitor's language, how long to wait.
   */
  error(status: number, message: string, req: PageRequest, retryAfterSeconds?: number): PageAnswer;
}

export function createPages(deps: PageDeps): Pages {
  const { store, engine, render, media } = deps;

  function problem(f: Frame, status: number, heading: string, message: string): PageAnswer {
    return { status, html: render('problem', { ...f, title: heading, heading, message }) };
  }

  function facetLinks(f: Frame, state: SearchState, facets: readonly FacetCounts[]) {
    return facets
      .filter((c) => c.values.length > 0)
      .map((c) => ({
        field: c.field,
        label: facetLabel(c.field, f.lang),
        values: c.values.map((v) => {
          const active = state.filters.some((x) => x.field === c.field && x.value === v.value);
          const filters = active
            ? state.filters.filter((x) => !(x.field === c.field && x.value === v.value))
            : [...state.filters, { field: c.field, value: v.value }];
          return {
            label: facetValueLabel(c.field, v.value, f.lang),
            count: v.count,
            active,
            href: searchUrl({ ...state, filters, page: 1 }),
          };
        }),
      }));
  }

  return {
    error: (status, message, req, retryAfterSeconds) => {
      const f = frame('/', req, (t) => (status === 429 || status >= 500 ? t.unavailable : t.badRequest));
      // The API's 429 message speaks of keys; a visitor of the pages has none.
      if (status === 429 && retryAfterSeconds !== undefined)
        return problem(f, status, f.title, format(f.t.tooManyPages, { seconds: retryAfterSeconds }));
      return problem(f, status, f.title, status === 429 ? `${message} ${f.t.tryAgain}` : message);
    },

    home: async (req) => {
      const f = frame('/', req, (t) => t.siteName);
      const facets = ['sector_fct', 'type_fct'].map((field) => ({ field, limit: -1, mincount: 1, sort: 'count' as const }));
      const [items, persons] = await Promise.all([
        engine({ kind: 'item', request: { query: ALL, facets, sort: { kind: 'id', descending: false }, offset: 0, rows: 0 } }),
        engine({ kind: 'person', request: { query: ALL, sort: { kind: 'id', descending: false }, offset: 0, rows: 0 } }),
      ]);
      const base: SearchState = { q: '', filters: [], sort: 'relevance', page: 1, lang: f.langParam };
      const starts = facetLinks(f, base, items.facets);
      const dateFormat = new Intl.DateTimeFormat(f.lang === 'de' ? 'de-DE' : 'en-GB', {
        dateStyle: 'long',
        timeStyle: 'short',
        timeZone: 'UTC',
      });
      const when = (d: Date) => `${dateFormat.format(d)} UTC`;
      const loads = (await store.listLoads()).map((l) => ({
        kind: l.kind === 'items' ? f.t.items : f.t.persons,
        text: format(f.t.loadedAt, { records: l.records.toLocaleString(f.lang), date: when(l.finishedAt) }),
      }));
      const harvests = (await store.listHarvests()).map((h) => ({ source: h.source, when: when(h.updatedAt) }));
      return {
        status: 200,
        html: render('home', {
          ...f,
          bigSearch: true,
          itemCount: items.total,
          personCount: persons.total,
          sectors: starts.find((s) => s.field === 'sector_fct'),
          mediaTypes: starts.find((s) => s.field === 'type_fct'),
          loads,
          harvests,
          allItems: searchUrl(base),
        }),
      };
    },

    search: async (req) => {
      const { state, problems } = readSearchState(req.query);
      const f = frame('/search', req, (t) => (state.q === '' ? t.allItems : format(t.resultsFor, { q: state.q })), state.q);
      let query: QueryNode<string> = ALL;
      if (state.q !== '') {
        try {
          query = parseQuery(state.q, { fields: ITEM_FIELDS });
        } catch (error) {
          return problem(f, 400, f.t.badRequest, (error as Error).message);
        }
      }
      const facets = RESULT_FACETS.map((field) => ({ field, limit: FACET_VALUES, mincount: 1, sort: 'count' as const }));
      const itemSearch = engine({
        kind: 'item',
        request: {
          query,
          filters: engineFilters(state.filters),
          facets,
          sort: ENGINE_SORT[state.sort],
          offset: (state.page - 1) * ROWS,
          rows: ROWS,
        },
      });
      // Persons whose names match the same words; a query in item fields (title:…) is none of theirs.
      let personQuery: QueryNode<string> | undefined;
      if (state.q !== '') {
        try {
          personQuery = parseQuery(state.q);
        } catch {
          personQuery = undefined;
        }
      }
      const personSearch =
        personQuery === undefined
          ? undefined
          : engine({ kind: 'person', request: { query: personQuery, sort: { kind: 'relevance' }, offset: 0, rows: PERSON_ROWS } }).catch(
              () => undefined,
            );
      const [items, persons] = await Promise.all([itemSearch, personSearch]);
      const docs = parseDocs<ResultDoc>(items);
      const pages = Math.max(1, Math.ceil(items.total / ROWS));
      const pageLinks: Array<{ page: number; href: string; current: boolean }> = [];
      for (let p = Math.max(1, state.page - 3); p <= Math.min(pages, state.page + 3, MAX_PAGE); p++) {
        pageLinks.push({ page: p, href: searchUrl({ ...state, page: p }), current: p === state.page });
      }
      const sorts = SORTS.map((s) => ({
        value: s,
        label: {
          relevance: f.t.sortRelevance,
          title: f.t.sortTitleAsc,
          '-title': f.t.sortTitleDesc,
          date: f.t.sortOldest,
          '-date': f.t.sortNewest,
        }[s],
        selected: s === state.sort,
      }));
      return {
        status: 200,
        html: render('search', {
          ...f,
          state,
          problems: problems.map((p) => format(f.t[p.key], p.values)),
          total: items.total,
          from: items.total === 0 ? 0 : (state.page - 1) * ROWS + 1,
          to: (state.page - 1) * ROWS + docs.length,
          results: await hitsOf(f, docs),
          providers: await providersOf(docs.map((d) => d.id)),
          facets: facetLinks(f, state, items.facets),
          active: state.filters.map((x) => ({
            label: `${facetLabel(x.field, f.lang)}: ${facetValueLabel(x.field, x.value, f.lang)}`,
            href: searchUrl({ ...state, filters: state.filters.filter((y) => y !== x), page: 1 }),
          })),
          clearFilters: searchUrl({ ...state, filters: [], page: 1 }),
          sorts,
          pages,
          pageLinks,
          // First and last when the window of page links does not reach them.
          firstPage: pageLinks.length > 0 && pageLinks[0]!.page > 1 ? searchUrl({ ...state, page: 1 }) : undefined,
          lastPage:
            pageLinks.length > 0 && pageLinks[pageLinks.length - 1]!.page < Math.min(pages, MAX_PAGE)
              ? { page: Math.min(pages, MAX_PAGE), href: searchUrl({ ...state, page: Math.min(pages, MAX_PAGE) }) }
              : undefined,
          previous: state.page > 1 ? searchUrl({ ...state, page: state.page - 1 }) : undefined,
          next: state.page < Math.min(pages, MAX_PAGE) ? searchUrl({ ...state, page: state.page + 1 }) : undefined,
          persons: persons === undefined ? [] : parseDocs<Record<string, unknown>>(persons).map((p) => personLink(f, personView(p))),
          personTotal: persons?.total ?? 0,
        }),
      };
    },

    item: async (id, req) => {
      const f = frame(itemPath(id), req, (t) => t.notFound);
      const doc = await store.getItemDocument(id, 'json');
      if (doc === undefined) return problem(f, 404, f.t.notFound, format(f.t.itemNotFound, { id }));
      if (doc.blockedReason !== null) return problem(f, 404, f.t.notFound, f.t.blocked);
      const view = itemView(id, JSON.parse(doc.body.toString('utf8')));
      const { state } = readSearchState({});
      const cpage = pageParam(first(req.query.cpage));
      const children = (await store.getChildren(id, (cpage - 1) * CHILD_ROWS, CHILD_ROWS)) ?? { total: 0, nodes: [] };
      const childPages = Math.max(1, Math.ceil(children.total / CHILD_ROWS));
      const pagedLink = (p: number) => f.link(p === 1 ? itemPath(id) : `${itemPath(id)}?cpage=${p}`);
      const crumbs = await breadcrumb(id);
      const enc = encodeURIComponent(id);
      // The package's preview thumbnail stands in for an item whose binaries list no image.
      const images =
        view.images.length > 0 || view.thumbnail === ''
          ? view.images
          : [{ renditions: [{ href: view.thumbnail, variant: '' }], name: '', mimetype: '' }];
      return {
        status: 200,
        html: render('item', {
          ...f,
          title: view.title,
          item: view,
          fields: readableFields(view.fields, f.lang),
          licenseName: view.license === undefined ? '' : licenseName(view.license.url) || licenseName(view.license.text),
          images: await shownImages(images, media, f.t),
          files: await shownFiles(view.files, media, f.lang, f.t),
          crumbs: crumbs.map((n) => ({ label: n.label || n.id, href: f.link(itemPath(n.id)) })),
          children: children.nodes.map((c) => ({ label: c.label || c.id, href: f.link(itemPath(c.id)), childCount: c.childCount })),
          childTotal: children.total,
          childPage: cpage,
          childPages,
          childPrevious: cpage > 1 ? pagedLink(cpage - 1) : undefined,
          childNext: cpage < childPages ? pagedLink(cpage + 1) : undefined,
          treeHref: f.link(`${itemPath(id)}/tree`),
          inHierarchy: crumbs.length > 0 || children.total > 0,
          providerSearch:
            view.provider === undefined
              ? undefined
              : f.link(searchUrl({ ...state, filters: [{ field: 'provider_fct', value: view.provider.name }] })),
          // For search engines and link previews (docs/pages.md "Found by search engines").
          meta: itemMeta({
            item: view,
            path: itemPath(id),
            origin: req.origin ?? '',
            parent:
              crumbs.length === 0
                ? undefined
                : {
                    path: itemPath(crumbs[crumbs.length - 1]!.id),
                    label: crumbs[crumbs.length - 1]!.label || crumbs[crumbs.length - 1]!.id,
                  },
          }),
          // The item's EDM graph in each RDF syntax, by Accept at the API's path (docs/linked-data.md).
          alternates: LINKED_DATA_TYPES.map((type) => ({ type, href: `/items/${enc}` })),
          // The API answers JSON or XML by Accept (a browser's gets XML): the labels name the resource.
          api: [
            { label: f.t.apiPackage, href: `/items/${enc}`, type: 'application/json' },
            { label: f.t.apiAip, href: `/items/${enc}/aip`, type: 'application/xml' },
            { label: 'EDM', href: `/items/${enc}/edm`, type: 'application/xml' },
            // The manifest only where there is one: an item without binaries answers 404 there.
            ...(view.hasManifest ? [{ label: f.t.apiIiif, href: `/items/${enc}/iiif`, type: 'application/ld+json' }] : []),
            { label: f.t.apiParents, href: `/items/${enc}/parents`, type: 'application/json' },
          ],
        }),
      };
    },

    tree: async (id, req) => {
      const f = frame(`${itemPath(id)}/tree`, req, (t) => t.tree);
      const ancestry = await store.getAncestry(id);
      if (ancestry === undefined) return problem(f, 404, f.t.notFound, format(f.t.itemNotFound, { id }));
      // Root first; the chain is cut at TREE_LEVELS (a deeper one still opens from its items' own trees).
      // A root's ancestry is empty (it has no parents): the tree starts at the item itself.
      const path: Array<{ id: string; label: string }> =
        ancestry.nodes.length > 0 ? [...ancestry.nodes].reverse().slice(-TREE_LEVELS) : [{ id, label: await titleOf(id) }];
      const root = await treeOf(store, path, TREE_ROWS);
      return {
        status: 200,
        html: render('tree', { ...f, root, itemPath, itemHref: f.link(itemPath(id)), itemLabel: path[path.length - 1]!.label || id }),
      };
    },

    person: async (gnd, req) => {
      const f = frame(`/person/${encodeURIComponent(gnd)}`, req, (t) => t.notFound);
      if (!isGndNumber(gnd)) return problem(f, 404, f.t.notFound, format(f.t.personNotFound, { id: gnd }));
      const uri = gndUri(gnd);
      const found = await engine({
        kind: 'person',
        request: { query: { kind: 'term', field: 'id', text: uri }, sort: { kind: 'relevance' }, offset: 0, rows: 1 },
      });
      const doc = parseDocs<Record<string, unknown>>(found)[0];
      if (doc === undefined) return problem(f, 404, f.t.notFound, format(f.t.personNotFound, { id: gnd }));
      const person = personView(doc);
      const filter = { field: 'affiliate_fct_normdata', value: uri };
      const items = await engine({
        kind: 'item',
        request: {
          query: ALL,
          filters: { affiliate_fct_normdata: [uri, uri.replace(/^http:/, 'https:')] },
          sort: ENGINE_SORT.title,
          offset: 0,
          rows: ROWS,
        },
      });
      const docs = parseDocs<ResultDoc>(items);
      const { state } = readSearchState({});
      return {
        status: 200,
        html: render('person', {
          ...f,
          title: person.name,
          // Dates as people write them on the page; the JSON-LD below keeps them ISO.
          person: { ...person, born: readableDate(person.born, f.lang), died: readableDate(person.died, f.lang) },
          meta: personMeta({
            person,
            path: `/person/${encodeURIComponent(gnd.toUpperCase())}`,
            origin: req.origin ?? '',
            gnd: gnd.toUpperCase(),
          }),
          // The person as linked data, by Accept at the API's path (docs/linked-data.md "Persons").
          alternates: PERSON_DATA_TYPES.map((type) => ({ type, href: `/entities/${encodeURIComponent(gnd.toUpperCase())}` })),
          items: await hitsOf(f, docs),
          itemTotal: items.total,
          allItems: f.link(searchUrl({ ...state, filters: [filter] })),
        }),
      };
    },
  };

  async function titleOf(id: string): Promise<string> {
    const doc = await store.getItemDocument(id, 'json');
    return doc === undefined || doc.blockedReason !== null ? id : itemView(id, JSON.parse(doc.body.toString('utf8'))).title;
  }

  /** The item itself first, up to the root: reversed into a breadcrumb, root first, without the item. */
  async function breadcrumb(id: string) {
    const ancestry = await store.getAncestry(id);
    if (ancestry === undefined) return [];
    return ancestry.nodes.slice(1).reverse();
  }

  /** Hits for the results and person pages: a thumbnail only where it can be shown (./mediaView.ts), else the placeholder. */
  async function hitsOf(f: Frame, docs: readonly ResultDoc[]) {
    const out = [];
    for (const d of docs) {
      const thumbnail = thumbnailOf(d.thumbnail);
      out.push({ ...d, href: f.link(itemPath(d.id)), thumbnail: (await canShow(media, thumbnail)) ? thumbnail : '' });
    }
    return out;
  }

  /** The provider of each hit, from its package (the result doc has none). */
  async function providersOf(ids: readonly string[]): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const id of ids) {
      const doc = await store.getItemDocument(id, 'json');
      if (doc === undefined || doc.blockedReason !== null) continue;
      const name = itemView(id, JSON.parse(doc.body.toString('utf8'))).provider?.name;
      if (name !== undefined) out[id] = name;
    }
    return out;
  }
}

function pageParam(value: string | undefined): number {
  return value !== undefined && /^[0-9]{1,6}$/.test(value) && Number(value) >= 1 ? Number(value) : 1;
}

function thumbnailOf(path: string): string {
  return path.startsWith('/binary/') ? path : '';
}

function personLink(f: Frame, p: PersonView) {
  const gnd = gndOfPersonId(p.id);
  return {
    ...p,
    born: readableDate(p.born, f.lang),
    died: readableDate(p.died, f.lang),
    href: gnd === undefined ? undefined : f.link(`/person/${encodeURIComponent(gnd)}`),
  };
}
