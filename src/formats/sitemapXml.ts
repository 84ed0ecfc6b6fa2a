/**
 * Sitemaps in the sitemaps.org protocol 0.9 (https://www.sitemaps.org/protocol.html): a
 * sitemap index and the URL sets it names (docs/sitemaps.md). Every location is escaped as
 * XML text (the protocol asks for entity-escaped URLs); `lastmod` is a W3C Datetime in UTC
 * to the second.
 */
import { escapeXmlText } from './xmlEscape.js';

const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

export interface SitemapLocation {
  loc: string;
  lastModified: Date | null;
}

/** 2024-05-06T07:08:09Z */
export function w3cDatetime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function entry(tag: 'sitemap' | 'url', l: SitemapLocation): string {
  const lastmod = l.lastModified === null ? '' : `<lastmod>${w3cDatetime(l.lastModified)}</lastmod>`;
  return `<${tag}><loc>${escapeXmlText(l.loc)}</loc>${lastmod}</${tag}>\n`;
}

/** A sitemap index naming each sitemap, with its newest change where known. */
export function sitemapIndexXml(sitemaps: readonly SitemapLocation[]): string {
  return `${DECLARATION}<sitemapindex xmlns="${NAMESPACE}">\n${sitemaps.map((s) => entry('sitemap', s)).join('')}</sitemapindex>\n`;
}

/** The start of a URL set; its entries follow, each from urlsetEntry, then URLSET_END. */
export const URLSET_START = `${DECLARATION}<urlset xmlns="${NAMESPACE}">\n`;
export const URLSET_END = '</urlset>\n';
export const urlsetEntry = (l: SitemapLocation): string => entry('url', l);
