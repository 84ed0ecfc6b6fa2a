import { ALL } from '../query/ast.js';
import { facetLinks } from './facetLinks.js';
import { frame, type PageAnswer, type PageRequest } from './frame.js';
import { format } from './messages.js';
import type { PageDeps } from './pageDeps.js';
import { searchUrl, type SearchState } from './searchState.js';

/** The home page (docs/pages.md): counts, where to start, what was loaded. */
export async function homePage(deps: PageDeps, req: PageRequest): Promise<PageAnswer> {
  const { store, engine, render } = deps;
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
}
