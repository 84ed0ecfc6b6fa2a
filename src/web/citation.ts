/**
 * A citation of an item in a plain style (docs/pages.md "Cite and share"): who, title, when,
 * the holding institution, the permalink and the licence, and the day it was looked at, as
 * citation guides ask of web resources: `Pecht, Friedrich: Goethe, 1864–1877. Frankfurter
 * Goethe-Haus. https://…/item/… (CC BY-NC-SA 4.0), abgerufen am 27. November 2026.`
 */
import { licenseName, readableDate } from './fieldValues.js';
import type { DisplayField } from './itemView.js';
import { format, type Messages, type Lang } from './messages.js';

/** Fields naming the makers of a work, in the order a citation prefers them (stored German names). */
const CREATOR_FIELDS = ['Urheber', 'Autor', 'Herausgeber', '(wer)'];
/** Fields dating it. */
const DATE_FIELDS = ['Datierung', 'Entstehungszeit', 'Erscheinungsjahr', '(wann)', 'Zeitraum'];

function firstField(fields: readonly DisplayField[], names: readonly string[]): string[] {
  for (const name of names) {
    const field = fields.find((f) => f.name === name);
    if (field !== undefined && field.values.length > 0) return field.values;
  }
  return [];
}

/** The makers a citation names: every distinct name of the first maker field the record has, in its order. */
export function citationMakers(fields: readonly DisplayField[]): string[] {
  return [...new Set(firstField(fields, CREATOR_FIELDS).map((v) => v.trim()))];
}

/** The record's date as written in the first date field it has; undefined for none. */
export function citationDate(fields: readonly DisplayField[]): string | undefined {
  return firstField(fields, DATE_FIELDS)[0]?.trim();
}

/** The licence a citation names: its short name (`CC BY 4.0`), else its wording; '' for none. */
export function citationLicense(license: { text: string; url: string } | undefined): string {
  if (license === undefined) return '';
  return licenseName(license.url) || licenseName(license.text) || license.text;
}

export interface CitationInput {
  title: string;
  fields: readonly DisplayField[];
  provider: string;
  permalink: string;
  /** The licence's short name or its wording; '' for none. */
  license: string;
  lang: Lang;
  t: Messages;
  /** The day the page was made. */
  today: Date;
}

export function plainCitation(c: CitationInput): string {
  const creators = citationMakers(c.fields).slice(0, 3);
  const date = citationDate(c.fields);
  const when = date === undefined ? '' : readableDate(date, c.lang);
  const day = new Intl.DateTimeFormat(c.lang === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(c.today);
  const work = `${c.title}${when === '' ? '' : `, ${when}`}`;
  return [
    creators.length > 0 ? `${creators.join('; ')}: ${work}.` : `${work}.`,
    c.provider === '' ? '' : ` ${c.provider}.`,
    ` ${c.permalink}`,
    c.license === '' ? '' : ` (${c.license})`,
    `, ${format(c.t.accessed, { date: day })}.`,
  ].join('');
}
