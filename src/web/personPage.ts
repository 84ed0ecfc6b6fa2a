import { ALL } from '../query/ast.js';
import { readableDate } from './fieldValues.js';
import { frame, problemPage, type PageAnswer, type PageRequest } from './frame.js';
import { hitsOf, parseDocs, type ResultDoc } from './hits.js';
import { format } from './messages.js';
import type { PageDeps } from './pageDeps.js';
import { personMeta } from './pageMeta.js';
import { gndUri, isGndNumber, personView } from './personView.js';
import { ENGINE_SORT, readSearchState, ROWS, searchUrl } from './searchState.js';

/** Those of a person at /entities/{gnd}. */
const PERSON_DATA_TYPES = ['application/ld+json', 'text/turtle', 'application/n-triples'] as const;

/** The person page (docs/pages.md): a person of the GND and the items that name them. */
export async function personPage(deps: PageDeps, gnd: string, req: PageRequest): Promise<PageAnswer> {
  const { engine, render, media } = deps;
  const f = frame(`/person/${encodeURIComponent(gnd)}`, req, (t) => t.notFound);
  if (!isGndNumber(gnd)) return problemPage(render, f, 404, f.t.notFound, format(f.t.personNotFound, { id: gnd }));
  const uri = gndUri(gnd);
  const found = await engine({
    kind: 'person',
    request: { query: { kind: 'term', field: 'id', text: uri }, sort: { kind: 'relevance' }, offset: 0, rows: 1 },
  });
  const doc = parseDocs<Record<string, unknown>>(found)[0];
  if (doc === undefined) return problemPage(render, f, 404, f.t.notFound, format(f.t.personNotFound, { id: gnd }));
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
      items: await hitsOf(media, f, docs, deps.store),
      itemTotal: items.total,
      allItems: f.link(searchUrl({ ...state, filters: [filter] })),
    }),
  };
}
