import { ALL } from '../query/ast.js';
import { facetLinks } from './facetLinks.js';
import { frame, type PageAnswer, type PageRequest } from './frame.js';
import { hitsOf, parseDocs, type ResultDoc } from './hits.js';
import { format } from './messages.js';
import type { PageDeps } from './pageDeps.js';
import { facetValuesUrl } from './resultsQuery.js';
import { searchUrl, type SearchState } from './searchState.js';

/** Tiles of items with images, institutions listed, items new or updated: each this many. */
const TILES = 8;
const INSTITUTIONS = 8;
const NEWEST = 8;

/**
 * The home page (docs/pages.md "Home"): the search box and counts; items with images, a new
 * choice every day (the engine's random order, seeded by the date); where to start (sectors,
 * media types, institutions with their counts); the items changed last; what was loaded.
 */
export async function homePage(deps: PageDeps, req: PageRequest, now = new Date()): Promise<PageAnswer> {
  const { store, engine, render, media } = deps;
  const f = frame('/', req, (t) => t.siteName);
  const facets = [
    { field: 'sector_fct', limit: -1, mincount: 1, sort: 'count' as const },
    { field: 'type_fct', limit: -1, mincount: 1, sort: 'count' as const },
    { field: 'provider_fct', limit: INSTITUTIONS + 1, mincount: 1, sort: 'count' as const },
  ];
  const newest = await store.listNewestOaiRecords(NEWEST);
  const [items, persons, pictures, recent] = await Promise.all([
    engine({ kind: 'item', request: { query: ALL, facets, sort: { kind: 'id', descending: false }, offset: 0, rows: 0 } }),
    engine({ kind: 'person', request: { query: ALL, sort: { kind: 'id', descending: false }, offset: 0, rows: 0 } }),
    engine({
      kind: 'item',
      request: {
        query: ALL,
        filters: { has_media_fct: ['true'], type_fct: ['mediatype_002'] },
        sort: { kind: 'random', seed: now.toISOString().slice(0, 10) },
        offset: 0,
        rows: TILES,
      },
    }),
    newest.length === 0
      ? undefined
      : engine({
          kind: 'item',
          request: {
            query: { kind: 'or', children: newest.map((r) => ({ kind: 'term' as const, field: 'id', text: r.id })) },
            sort: { kind: 'id', descending: false },
            offset: 0,
            rows: NEWEST,
          },
        }),
  ]);
  const base: SearchState = { q: '', filters: [], sort: 'relevance', page: 1, lang: f.langParam };
  const starts = facetLinks(f, base, items.facets);
  const institutions = starts.find((s) => s.field === 'provider_fct');
  // The newest first, as the store listed them; an item the index does not hold yet is left out.
  const recentDocs = recent === undefined ? [] : parseDocs<ResultDoc>(recent);
  const byId = new Map(recentDocs.map((d) => [d.id, d]));
  const dateFormat = new Intl.DateTimeFormat(f.lang === 'de' ? 'de-DE' : 'en-GB', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  const when = (d: Date) => `${dateFormat.format(d)} UTC`;
  const loads = (await store.listLoads()).map((l) => ({
    kind: l.kind === 'items' ? f.t.items : f.t.persons,
    text: format(f.t.loadedAt, { records: f.num(l.records), date: when(l.finishedAt) }),
  }));
  const harvests = (await store.listHarvests()).map((h) => ({ source: h.source, when: when(h.updatedAt) }));
  return {
    status: 200,
    html: render('home', {
      ...f,
      bigSearch: true,
      description: format(f.t.homeDescription, {
        items: f.num(items.total),
        persons: f.num(persons.total),
      }),
      itemCount: items.total,
      personCount: persons.total,
      persons: f.link('/persons'),
      pictures: await hitsOf(media, f, parseDocs<ResultDoc>(pictures)),
      pictureSearch: searchUrl({
        ...base,
        filters: [
          { field: 'type_fct', value: 'mediatype_002' },
          { field: 'has_media_fct', value: 'true' },
        ],
      }),
      sectors: starts.find((s) => s.field === 'sector_fct'),
      mediaTypes: starts.find((s) => s.field === 'type_fct'),
      institutions:
        institutions === undefined
          ? undefined
          : {
              ...institutions,
              values: institutions.values.slice(0, INSTITUTIONS),
              more: institutions.values.length > INSTITUTIONS ? facetValuesUrl(base, 'provider_fct') : undefined,
            },
      recent: await hitsOf(
        media,
        f,
        newest.map((r) => byId.get(r.id)).filter((d): d is ResultDoc => d !== undefined),
      ),
      loads,
      harvests,
      allItems: searchUrl(base),
    }),
  };
}
