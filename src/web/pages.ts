/**
 * The pages for people (docs/pages.md): home, search results, item, hierarchy tree, person,
 * a facet's values and the persons index. Each page is a function from what the request
 * asked (path parameters, query, language preference) to a status and an HTML document, one
 * file each (./homePage.ts, ./searchPage.ts, ./itemPage.ts, ./treePage.ts, ./personPage.ts,
 * ./facetValuesPage.ts, ./personsPage.ts); src/http/routes/pages.ts
 * puts them on paths. Data comes from the store (packages, hierarchy, load status) and the
 * search engine (searches, facets, counts). Nothing here knows HTTP.
 */
import { frame, problemPage, type PageAnswer, type PageRequest } from './frame.js';
import { facetValuesPage } from './facetValuesPage.js';
import { homePage } from './homePage.js';
import { itemPage } from './itemPage.js';
import { format } from './messages.js';
import type { PageDeps } from './pageDeps.js';
import { personPage } from './personPage.js';
import { personsPage } from './personsPage.js';
import { placesPage } from './placesPage.js';
import { searchPage } from './searchPage.js';
import { treePage } from './treePage.js';

export type { PageAnswer, PageRequest } from './frame.js';
export type { PageDeps } from './pageDeps.js';

export interface Pages {
  home(req: PageRequest): Promise<PageAnswer>;
  search(req: PageRequest): Promise<PageAnswer>;
  places(req: PageRequest): Promise<PageAnswer>;
  item(id: string, req: PageRequest): Promise<PageAnswer>;
  tree(id: string, req: PageRequest): Promise<PageAnswer>;
  person(gnd: string, req: PageRequest): Promise<PageAnswer>;
  /** All values of a facet under the results' state (./facetValuesPage.ts). */
  facetValues(field: string, req: PageRequest): Promise<PageAnswer>;
  /** The persons index (./personsPage.ts). */
  persons(req: PageRequest): Promise<PageAnswer>;
  /**
   * A page for an error the server answers on a page's path: its status and message; a 429
   * of the pages' rate limit says instead, in the visitor's language, how long to wait.
   */
  error(status: number, message: string, req: PageRequest, retryAfterSeconds?: number): PageAnswer;
}

export function createPages(deps: PageDeps): Pages {
  return {
    error: (status, message, req, retryAfterSeconds) => {
      const f = frame('/', req, (t) => (status === 429 || status >= 500 ? t.unavailable : t.badRequest));
      // The API's 429 message speaks of keys; a visitor of the pages has none.
      if (status === 429 && retryAfterSeconds !== undefined)
        return problemPage(deps.render, f, status, f.title, format(f.t.tooManyPages, { seconds: retryAfterSeconds }));
      return problemPage(deps.render, f, status, f.title, status === 429 ? `${message} ${f.t.tryAgain}` : message);
    },
    home: (req) => homePage(deps, req),
    search: (req) => searchPage(deps, req),
    places: (req) => placesPage(deps, req),
    item: (id, req) => itemPage(deps, id, req),
    tree: (id, req) => treePage(deps, id, req),
    person: (gnd, req) => personPage(deps, gnd, req),
    facetValues: (field, req) => facetValuesPage(deps, field, req),
    persons: (req) => personsPage(deps, req),
  };
}
