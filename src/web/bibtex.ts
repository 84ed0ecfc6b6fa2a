/**
 * A BibTeX entry of an item (docs/pages.md "Cite and share"), from the fields the plain
 * citation reads (./citation.ts), shown on the item page and downloaded at
 * `/item/{id}/cite.bib`:
 *
 * - `@misc`: the records are objects of every sector (paintings, letters, files of an archive,
 *   instruments), and the view does not say reliably which is a book or an article; every
 *   BibTeX style and biblatex know `@misc`.
 * - key: the item id, stable and unique in the store, and made of characters a key may hold
 *   (`[A-Za-z0-9._:-]`, src/domain/itemIds.ts).
 * - `author`: the makers, joined by `and`. A name written `Family, Given` or carrying life
 *   dates (`Johann Wolfgang von Goethe (1749-1832)`, the DDB's form of a person) is a person's:
 *   the life dates go, BibTeX splits the rest. Any other name of several words, and any name
 *   with `&`, `und` or `and` in it, is kept whole in braces (a corporate name, `Frankfurter
 *   Goethe-Haus`, `John Broadwood & Sons`): no style reorders or abbreviates it.
 * - `title` in an extra pair of braces: styles that lower-case titles keep German nouns.
 * - `year` as the record writes it (`1864--1877` for a range); `date` (biblatex) where the
 *   record's date is an ISO date or range.
 * - `howpublished`: the holding institution (printed by BibTeX's standard styles and biblatex).
 * - `url` the permalink, `urldate` the day the entry was made, `note` the licence.
 *
 * Values are escaped for BibTeX and LaTeX: `\ { } % & # _ $ ~ ^ < > |` become commands whose braces
 * balance (BibTeX counts braces even after a backslash), white space one space; every other
 * character stays as written, UTF-8, as biber and biblatex read it.
 */
import { citationDate, citationLicense, citationMakers } from './citation.js';
import type { DisplayField, ItemView } from './itemView.js';

export interface BibtexInput {
  id: string;
  title: string;
  fields: readonly DisplayField[];
  provider: string;
  permalink: string;
  license: { text: string; url: string } | undefined;
  /** The day the entry is made: its `urldate`. */
  today: Date;
}

const SPECIAL: Readonly<Record<string, string>> = {
  '\\': '\\textbackslash{}',
  '{': '\\textbraceleft{}',
  '}': '\\textbraceright{}',
  '%': '\\%',
  '&': '\\&',
  '#': '\\#',
  _: '\\_',
  $: '\\$',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
  // LaTeX's default font encoding (OT1) sets these as `¡ ¿ —`.
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
};

/** Text as the value of a BibTeX field (without the braces around it). */
export function bibtexText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\{}%&#_$~^<>|]/g, (c) => SPECIAL[c]!);
}

/** Life dates the DDB's records add to a person's name: `(1749-1832)`, `(1800-1870)`. */
const LIFE_DATES = /\s*\([^()]*\d[^()]*\)\s*$/;
const JOINED = /&|\b(?:und|and)\b/i;

/** One maker as a BibTeX name (see the header). */
export function bibtexName(value: string): string {
  const lifeDates = LIFE_DATES.test(value);
  const name = value.replace(LIFE_DATES, '').replace(/\s+/g, ' ').trim();
  const familyGiven = /^[^,]+,[^,]+$/.test(name);
  const person = !JOINED.test(name) && (familyGiven || lifeDates || !name.includes(' '));
  return person ? bibtexText(name) : `{${bibtexText(name)}}`;
}

/** The record's date as BibTeX's `year` and biblatex's `date`. */
function dates(value: string | undefined): { year?: string; date?: string } {
  if (value === undefined || value === '') return {};
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (day) return { year: day[1]!, date: value };
  // The DDB's range of two days; whole years as years.
  const days = /^(\d{4})-(\d{2}-\d{2})\s*[-/–]\s*(\d{4})-(\d{2}-\d{2})$/.exec(value);
  if (days) {
    const [, y1, md1, y2, md2] = days as unknown as [string, string, string, string, string];
    const years = md1 === '01-01' && md2 === '12-31';
    if (years && y1 === y2) return { year: y1, date: y1 };
    return { year: y1 === y2 ? y1 : `${y1}--${y2}`, date: years ? `${y1}/${y2}` : `${y1}-${md1}/${y2}-${md2}` };
  }
  const years = /^(\d{4})\s*[-/–]\s*(\d{4})$/.exec(value);
  if (years) return { year: `${years[1]}--${years[2]}`, date: `${years[1]}/${years[2]}` };
  if (/^\d{4}$/.test(value)) return { year: value, date: value };
  return { year: bibtexText(value) };
}

/** A URL as a verbatim field takes it: nothing that would end the value or the line. */
function bibtexUrl(url: string): string {
  return url.replace(/[{}\\\s]/g, (c) => encodeURIComponent(c));
}

export function bibtexEntry(c: BibtexInput): string {
  const makers = citationMakers(c.fields).map(bibtexName);
  const license = citationLicense(c.license);
  const { year, date } = dates(citationDate(c.fields));
  const fields: Array<[string, string | undefined]> = [
    ['author', makers.length === 0 ? undefined : makers.join(' and ')],
    ['title', `{${bibtexText(c.title)}}`],
    ['year', year],
    ['date', date],
    ['howpublished', c.provider.trim() === '' ? undefined : bibtexText(c.provider)],
    ['url', bibtexUrl(c.permalink)],
    ['urldate', c.today.toISOString().slice(0, 10)],
    ['note', license === '' ? undefined : bibtexText(license)],
  ];
  const lines = fields.filter((f): f is [string, string] => f[1] !== undefined).map(([name, value]) => `  ${name} = {${value}}`);
  return `@misc{${c.id},\n${lines.join(',\n')}\n}\n`;
}

/** The entry of an item as the page and its download (`/item/{id}/cite.bib`) give it. */
export function itemBibtex(view: ItemView, permalink: string, today: Date): string {
  return bibtexEntry({
    id: view.id,
    title: view.title,
    fields: view.fields,
    provider: view.provider?.name ?? '',
    permalink,
    license: view.license,
    today,
  });
}
