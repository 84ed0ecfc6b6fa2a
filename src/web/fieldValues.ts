/**
 * A record's display fields for people (docs/pages.md "Readable records"): labels in the
 * page's language (the DDB's label vocabulary, src/formats/viewLabels.ts), language codes as
 * names, ISO dates as people write them, the record's HTML cut down to a safe subset, the same
 * value once, and identifiers that are URIs as links. Values are otherwise the provider's data,
 * shown as given.
 */
import sanitizeHtml from 'sanitize-html';
import { englishLabel } from '../formats/viewLabels.js';
import type { DisplayField } from './itemView.js';
import type { Lang } from './messages.js';
import { webUrl } from './packageReading.js';

/** One value as the page writes it: text, a link, or sanitised HTML. */
export interface ReadableValue {
  text: string;
  /** Set: the value links there. */
  href?: string;
  /** Set: the record's HTML, sanitised to paragraphs, line breaks and http(s) links. */
  html?: string;
  /** Set: a name or subject that links to a page of ours, a person's or a search. */
  link?: string;
}

/**
 * Where names and subjects link (docs/pages.md "Readable records"): a person's page for a
 * GND URI the store knows, else a search for the words.
 */
export interface FieldLinks {
  /** The person page of a GND URI, or undefined when there is none. */
  person(uri: string): string | undefined;
  search(text: string): string;
}

/** The German field names (as stored; src/formats/viewLabels.ts) whose values name persons or organisations. */
const NAME_FIELDS: ReadonlySet<string> = new Set(['(wer)', 'Bezug (wer)', 'Urheber', 'Beteiligte', 'Autor', 'Herausgeber', 'Verlag']);
/** Those whose values are subjects. */
const SUBJECT_FIELDS: ReadonlySet<string> = new Set(['Thema', 'Schlagwort', 'Bezug (was)', 'Klassifikation']);

/** The words a search for a name uses: without the life dates the DDB's records add (`Pecht, Friedrich (1814-1903)`). */
function searchWords(text: string): string {
  return text.replace(/\s*\([^()]*\d[^()]*\)\s*$/, '').trim();
}

export interface ReadableField {
  label: string;
  values: ReadableValue[];
}

/** The German field names (as stored) whose values are language codes. */
const LANGUAGE_FIELDS: ReadonlySet<string> = new Set(['Sprache', 'Sprache des Objekts', 'Language']);

/** Markup the records carry (`<br />`, `<a href>`, `<p>`): a value holding one of these is HTML, anything else is text. */
const RECORD_HTML = /<\/?(?:a|p|br|b|i|em|strong|span|div|ul|ol|li|sup|sub|u)\b[^>]*>/i;

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'a'],
  allowedAttributes: { a: ['href', 'rel'] },
  allowedSchemes: ['http', 'https'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  // A link out of a record is the provider's: never the site's own.
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'external noopener' }) },
};

/** The record's HTML as the safe subset, or undefined when the value is no HTML. */
export function sanitizedHtml(value: string): string | undefined {
  if (!RECORD_HTML.test(value)) return undefined;
  return sanitizeHtml(value, SANITIZE).trim();
}

function dateOf(y: string, m: string, d: string): Date | undefined {
  const date = new Date(Date.UTC(2000, Number(m) - 1, Number(d)));
  date.setUTCFullYear(Number(y));
  return date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d) ? date : undefined;
}

// Made once per language: constructing an Intl formatter costs far more than formatting with one
// (the persons index formats two dates for each of its hundred rows).
const dateFormats = new Map<Lang, Intl.DateTimeFormat>();
const languageNames = new Map<Lang, Intl.DisplayNames>();

function dateFormat(lang: Lang): Intl.DateTimeFormat {
  let f = dateFormats.get(lang);
  if (f === undefined)
    dateFormats.set(
      lang,
      (f = new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })),
    );
  return f;
}

/**
 * An ISO date (`1749-08-28`) or the DDB's range of two (`1949-01-01-1949-12-31`) as people
 * write them: `28. August 1749` / `28 August 1749`, `1949`, `1949–1950`; anything else as given.
 */
export function readableDate(value: string, lang: Lang): string {
  const v = value.trim();
  const format = dateFormat(lang);
  const one = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (one) {
    const d = dateOf(one[1]!, one[2]!, one[3]!);
    return d === undefined ? value : format.format(d);
  }
  const range = /^(\d{4})-(\d{2})-(\d{2})\s*[-/–]\s*(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (range) {
    const [, y1, m1, d1, y2, m2, d2] = range as unknown as [string, string, string, string, string, string, string];
    const from = dateOf(y1, m1, d1);
    const to = dateOf(y2, m2, d2);
    if (from === undefined || to === undefined) return value;
    // Whole years: from the first of January to the last of December.
    if (`${m1}-${d1}` === '01-01' && `${m2}-${d2}` === '12-31') return y1 === y2 ? String(Number(y1)) : `${Number(y1)}–${Number(y2)}`;
    return from.getTime() === to.getTime() ? format.format(from) : `${format.format(from)} – ${format.format(to)}`;
  }
  return value;
}

/** An ISO 639 code (`fre`, `fra`, `fr`, `slv`) as the language's name in the page's language; anything else as given. */
export function languageName(value: string, lang: Lang): string {
  const code = value.trim().toLowerCase();
  if (!/^[a-z]{2,3}$/.test(code)) return value;
  try {
    let names = languageNames.get(lang);
    if (names === undefined) languageNames.set(lang, (names = new Intl.DisplayNames([lang], { type: 'language', fallback: 'none' })));
    const name = names.of(code);
    return name === undefined || name === 'root' || name.toLowerCase() === code ? value : name;
  } catch {
    return value;
  }
}

/** A URI that names something on the web: http(s) as given, handles and URNs by their resolvers. */
export function uriLink(value: string): string | undefined {
  const v = value.trim();
  const web = webUrl(v);
  if (web !== '') return web;
  const handle = /^hdl:(\d[\w.]*\/\S+)$/i.exec(v);
  if (handle) return `https://hdl.handle.net/${handle[1]}`;
  if (/^urn:nbn:[a-z0-9:.-]+$/i.test(v)) return `https://nbn-resolving.org/${v}`;
  return undefined;
}

const sameText = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** The display fields for people: labels translated, fields of one label together, each value once and readable. */
export function readableFields(fields: readonly DisplayField[], lang: Lang, links?: FieldLinks): ReadableField[] {
  const byLabel = new Map<string, { field: ReadableField; seen: Set<string> }>();
  for (const f of fields) {
    const label = lang === 'en' ? (englishLabel(f.name) ?? f.name) : f.name;
    let entry = byLabel.get(label);
    if (entry === undefined) {
      entry = { field: { label, values: [] }, seen: new Set() };
      byLabel.set(label, entry);
    }
    const linked = NAME_FIELDS.has(f.name) || SUBJECT_FIELDS.has(f.name);
    for (const [i, raw] of f.values.entries()) {
      const html = sanitizedHtml(raw);
      const text = html !== undefined ? sanitizeHtml(raw, { allowedTags: [], allowedAttributes: {} }) : raw;
      const key = sameText(text);
      if (key === '' || entry.seen.has(key)) continue;
      entry.seen.add(key);
      if (html !== undefined) {
        entry.field.values.push({ text, html });
        continue;
      }
      const person = links === undefined || f.resources[i] === undefined ? undefined : links.person(f.resources[i]);
      if (person !== undefined) {
        entry.field.values.push({ text: raw.trim(), link: person });
        continue;
      }
      if (links !== undefined && linked && searchWords(raw) !== '' && uriLink(raw) === undefined) {
        entry.field.values.push({ text: raw.trim(), link: links.search(searchWords(raw)) });
        continue;
      }
      const href = uriLink(raw);
      if (href !== undefined) {
        entry.field.values.push({ text: raw.trim(), href });
        continue;
      }
      const shown = LANGUAGE_FIELDS.has(f.name) ? languageName(raw, lang) : readableDate(raw, lang);
      entry.field.values.push({ text: shown });
    }
  }
  return [...byLabel.values()].map((e) => e.field).filter((f) => f.values.length > 0);
}

/** RightsStatements.org's statements by their URI's code (https://rightsstatements.org/page/1.0/). */
const RIGHTS_STATEMENTS: Readonly<Record<string, string>> = {
  InC: 'In Copyright',
  'InC-OW-EU': 'In Copyright – EU Orphan Work',
  'InC-EDU': 'In Copyright – Educational Use Permitted',
  'InC-NC': 'In Copyright – Non-Commercial Use Permitted',
  'InC-RUU': 'In Copyright – Rights-holder(s) Unlocatable or Unidentifiable',
  'NoC-CR': 'No Copyright – Contractual Restrictions',
  'NoC-NC': 'No Copyright – Non-Commercial Use Only',
  'NoC-OKLR': 'No Copyright – Other Known Legal Restrictions',
  'NoC-US': 'No Copyright – United States',
  CNE: 'Copyright Not Evaluated',
  UND: 'Copyright Undetermined',
  NKC: 'No Known Copyright',
};

/**
 * The short name of a licence by its URI, for the badge beside the record's own wording:
 * `CC BY-NC-SA 4.0`, `CC0 1.0`, `Public Domain Mark 1.0`, a RightsStatements.org statement's
 * name; '' for a URI of neither.
 */
export function licenseName(uri: string): string {
  const cc = /^https?:\/\/creativecommons\.org\/(licenses|publicdomain)\/([a-z-]+)\/(\d+(?:\.\d+)?)/i.exec(uri.trim());
  if (cc) {
    const [, kind, code, version] = cc as unknown as [string, string, string, string];
    if (kind.toLowerCase() === 'licenses') return `CC ${code.toUpperCase()} ${version}`;
    if (code.toLowerCase() === 'zero') return `CC0 ${version}`;
    if (code.toLowerCase() === 'mark') return `Public Domain Mark ${version}`;
    return '';
  }
  const rs = /^https?:\/\/rightsstatements\.org\/vocab\/([A-Za-z-]+)\/\d/.exec(uri.trim());
  return rs ? (RIGHTS_STATEMENTS[rs[1]!] ?? '') : '';
}
