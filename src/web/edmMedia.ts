/**
 * Where the media of a package built from EDM are at their origin (docs/pages.md "Images").
 * Such a package names each digital object `/binary/<id>/list/<position>.<ext>` in the order
 * the build took them from the record (docs/edm-mapping.md "binaries": the Aggregation's
 * edm:isShownBy, then edm:object, then each edm:hasView, then any other edm:WebResource, each
 * URL once, edm:isShownAt left out); its `edm` part keeps the record. Read in that order, the
 * record's URLs give each position its origin. A package of another shape (the DDB's own, with
 * renditions made by its image service) gets none: its media are the service's.
 */
import { attr, listOf, objectOf, type Obj } from './packageReading.js';

function resourcesOf(element: Obj | undefined, name: string): string[] {
  return listOf(element?.[name])
    .map((v) => attr(v, 'resource'))
    .filter((v) => v !== '');
}

/** The record's media URLs in the build's order, when the package is one built from EDM; else undefined. */
export function edmMediaUrls(pkg: Obj): Map<number, string> | undefined {
  const rdf = objectOf(objectOf(pkg.edm)?.RDF);
  if (rdf === undefined) return undefined;
  const binaries = listOf(objectOf(pkg.binaries)?.binary);
  if (binaries.length === 0) return undefined;
  const aggregations = listOf(rdf.Aggregation).map(objectOf);
  const pages = new Set(aggregations.flatMap((a) => resourcesOf(a, 'isShownAt')));
  const urls: string[] = [];
  const add = (url: string) => {
    if (!urls.includes(url) && !pages.has(url)) urls.push(url);
  };
  for (const name of ['isShownBy', 'object', 'hasView']) for (const a of aggregations) for (const url of resourcesOf(a, name)) add(url);
  for (const wr of listOf(rdf.WebResource)) {
    const about = attr(wr, 'about');
    if (about !== '') add(about);
  }
  if (urls.length !== binaries.length) return undefined;
  const out = new Map<number, string>();
  for (const b of binaries) {
    const position = Number(attr(b, 'position'));
    const path = attr(b, 'path');
    // The build's shape exactly: one `list` file per position, numbered from 1.
    if (attr(b, 'category') !== 'list' || !Number.isInteger(position) || position < 1 || position > urls.length) return undefined;
    if (!new RegExp(`^/binary/[^/]+/list/${position}\\.[A-Za-z0-9]+$`).test(path)) return undefined;
    const url = urls[position - 1]!;
    if (!/^https?:\/\/[^\s"<>]+$/i.test(url)) continue;
    out.set(position, url);
  }
  return out;
}
