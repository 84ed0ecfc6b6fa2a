/**
 * The persons index (docs/pages.md "Persons"): `/persons`, the persons of the GND the
 * collection holds, 50 a page, by the initial of their name as shown (`initial=A` … `Z`,
 * `other` for the rest), ordered by how many items refer to them (`sort=items`, the default:
 * the person search's `count`) or by name (`sort=name`). Each links to its person page and
 * to the search of its items.
 */
import { ALL, and, type QueryNode } from '../query/ast.js';
import type { SearchSort } from '../search/engine/types.js';
import { itemCount } from './exploreMessages.js';
import { readableDate } from './fieldValues.js';
import { first, frame, type PageAnswer, type PageRequest } from './frame.js';
import { parseDocs } from './hits.js';
import { format } from './messages.js';
import type { PageDeps } from './pageDeps.js';
import { gndOfPersonId, gndUri, personView } from './personView.js';
import { MAX_PAGE, searchUrl } from './searchState.js';

export const PERSON_PAGE_ROWS = 50;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');

const BY_ITEMS: SearchSort = {
  kind: 'tiers',
  exact: false,
  tiers: [],
  keys: [
    { key: 'count', descending: true },
    { key: 'preferredName', descending: false },
  ],
};
const BY_NAME: SearchSort = { kind: 'key', key: 'preferredName', descending: false };

/** Names from `lower` up to (without) `upper`, compared folded (`Ä` as `a`) as the engine's name key is. */
function nameRange(lower: string, upper: string): QueryNode<string> {
  return { kind: 'range', field: 'preferredName', lower, upper, includeLower: true, includeUpper: false };
}

function initialQuery(initial: string | undefined): QueryNode<string> {
  if (initial === undefined) return ALL;
  // `{` follows `z` in code point order: a to z, and the rest.
  if (initial === 'other') return and([ALL, { kind: 'not', child: nameRange('a', '{') }]);
  const lower = initial.toLowerCase();
  return nameRange(lower, String.fromCharCode(lower.charCodeAt(0) + 1));
}

export async function personsPage(deps: PageDeps, req: PageRequest): Promise<PageAnswer> {
  const { engine, render } = deps;
  const f = frame('/persons', req, (t) => t.personsIndex);
  const problems: string[] = [];
  const initialParam = (first(req.query.initial) ?? '').trim();
  let initial: string | undefined;
  if (initialParam !== '') {
    if (initialParam === 'other' || LETTERS.includes(initialParam.toUpperCase()))
      initial = initialParam === 'other' ? 'other' : initialParam.toUpperCase();
    else problems.push(format(f.t.badInitial, { initial: initialParam.slice(0, 20) }));
  }
  const byName = first(req.query.sort) === 'name';
  const pageParam = first(req.query.page);
  let page = 1;
  if (pageParam !== undefined && pageParam !== '') {
    if (/^[0-9]{1,6}$/.test(pageParam) && Number(pageParam) >= 1 && Number(pageParam) <= MAX_PAGE) page = Number(pageParam);
    else problems.push(format(f.t.badPage, { page: pageParam.slice(0, 20), max: MAX_PAGE }));
  }
  const found = await engine({
    kind: 'person',
    request: {
      query: initialQuery(initial),
      sort: byName ? BY_NAME : BY_ITEMS,
      offset: (page - 1) * PERSON_PAGE_ROWS,
      rows: PERSON_PAGE_ROWS,
    },
  });
  const url = (params: { initial?: string | undefined; page?: number }) => {
    const q = new URLSearchParams();
    if (params.initial !== undefined) q.append('initial', params.initial);
    if (byName) q.append('sort', 'name');
    if (params.page !== undefined && params.page > 1) q.append('page', String(params.page));
    if (f.langParam !== undefined) q.append('lang', f.langParam);
    const qs = q.toString();
    return qs === '' ? '/persons' : `/persons?${qs}`;
  };
  const pages = Math.min(MAX_PAGE, Math.max(1, Math.ceil(found.total / PERSON_PAGE_ROWS)));
  const persons = parseDocs<Record<string, unknown>>(found).map((doc) => {
    const p = personView(doc);
    const gnd = gndOfPersonId(p.id);
    return {
      name: p.name,
      born: readableDate(p.born, f.lang),
      died: readableDate(p.died, f.lang),
      occupations: p.occupations,
      href: gnd === undefined ? undefined : f.link(`/person/${encodeURIComponent(gnd)}`),
      itemCount: p.count === 0 ? f.t.noItems : itemCount(f.t, p.count, f.lang),
      // The items that refer to the person, as the person page's link finds them.
      itemsHref:
        p.count === 0 || gnd === undefined
          ? undefined
          : searchUrl({
              q: '',
              filters: [{ field: 'affiliate_fct_normdata', value: gndUri(gnd) }],
              sort: 'relevance',
              page: 1,
              lang: f.langParam,
            }),
    };
  });
  return {
    status: 200,
    html: render('persons', {
      ...f,
      problems,
      initials: [
        { label: f.t.allInitials, href: url({}), current: initial === undefined },
        ...LETTERS.map((l) => ({ label: l, href: url({ initial: l }), current: initial === l })),
        { label: f.t.otherInitial, href: url({ initial: 'other' }), current: initial === 'other' },
      ],
      byName,
      hidden: [...(initial === undefined ? [] : [['initial', initial]]), ...(f.langParam === undefined ? [] : [['lang', f.langParam]])],
      persons,
      total: found.total,
      from: found.total === 0 ? 0 : (page - 1) * PERSON_PAGE_ROWS + 1,
      to: (page - 1) * PERSON_PAGE_ROWS + persons.length,
      page,
      pages,
      previous: page > 1 ? url({ initial, page: page - 1 }) : undefined,
      next: page < pages ? url({ initial, page: page + 1 }) : undefined,
    }),
  };
}
