/**
 * What every page's layout needs (docs/pages.md "Language"): the page's language and words,
 * links that keep a language the URL named, the switch to the other language; and the
 * request and answer of a page.
 */
import type { Renderer } from './render.js';
import { VERSION } from '../version.js';
import { chooseLang, format, MESSAGES, type Lang, type Messages } from './messages.js';
import { numberFormat } from './numberFormat.js';
import type { Query } from './searchState.js';

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

/**
 * The query parameters the pages read (./searchState.ts; `cpage` pages an item's children; `fq`,
 * `vsort`, `vpage` a facet's values, ./facetValuesPage.ts; `initial` the persons index; `pt`, `d` the places page); `lang` is set apart.
 */
const PAGE_PARAMETERS: ReadonlySet<string> = new Set([
  'q',
  'query',
  'f',
  'from',
  'to',
  'sort',
  'page',
  'cpage',
  'fq',
  'vsort',
  'vpage',
  'initial',
  'pt',
  'd',
]);

/** What every page's layout needs: language, words, the link to the other language. */
export interface Frame {
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
  /** A count in the page's language (1.234 / 1,234), from one formatter per language. */
  num: (n: number) => string;
  /** The language when the URL named it (the search form then keeps it), else undefined. */
  langParam: Lang | undefined;
}

export function frame(path: string, req: PageRequest, title: (t: Messages) => string, q = ''): Frame {
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
    num: numberFormat(lang),
    langParam: explicit ? lang : undefined,
  };
}

/** The problem page: a status, a heading and what went wrong. */
export function problemPage(render: Renderer, f: Frame, status: number, heading: string, message: string): PageAnswer {
  return { status, html: render('problem', { ...f, title: heading, heading, message }) };
}

export function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function withParam(path: string, name: string, value: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(value)}`;
}

export function itemPath(id: string): string {
  return `/item/${encodeURIComponent(id)}`;
}
