/**
 * EDM records whose media are at origins of the test's choosing (docs/pages.md "Images"), for
 * the item page's tests over HTTP and in Chromium: each names its digital objects by
 * edm:isShownBy, edm:object and edm:hasView as real records do, and its maker by a GND URI.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/tempDir.js';

export interface EdmMediaRecord {
  /** The DDB item id the record states (its CHO's rdf:about), so the test knows its page. */
  id: string;
  title: string;
  /** The media URLs: the first as edm:isShownBy and edm:object, the others as edm:hasView. */
  media: string[];
  /** ebucore:hasMimeType of each, when given. */
  types?: string[];
  creator?: { gnd: string; name: string };
  subject?: string;
  date?: string;
  license?: string;
  /** A place of the object with its coordinates (dcterms:spatial to an edm:Place with wgs84_pos), for the places page. */
  place?: { name: string; lat: string; long: string };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

export function edmMediaXml(r: EdmMediaRecord): string {
  const cho = `http://www.deutsche-digitale-bibliothek.de/item/${r.id}`;
  const license = r.license ?? 'http://creativecommons.org/licenses/by/4.0/';
  const [first, ...views] = r.media;
  const place = r.place && `http://example.org/place/${encodeURIComponent(r.place.name)}`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:edm="http://www.europeana.eu/schemas/edm/" xmlns:ore="http://www.openarchives.org/ore/terms/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:skos="http://www.w3.org/2004/02/skos/core#" xmlns:ebucore="http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#"${r.place ? ' xmlns:wgs84_pos="http://www.w3.org/2003/01/geo/wgs84_pos#"' : ''}>
  <edm:ProvidedCHO rdf:about="${cho}">
    <dc:title>${esc(r.title)}</dc:title>
${r.creator ? `    <dc:creator rdf:resource="http://d-nb.info/gnd/${r.creator.gnd}"/>\n` : ''}${r.subject ? `    <dc:subject>${esc(r.subject)}</dc:subject>\n` : ''}${r.date ? `    <dc:date>${esc(r.date)}</dc:date>\n` : ''}${place ? `    <dcterms:spatial rdf:resource="${place}"/>\n` : ''}    <edm:type>IMAGE</edm:type>
  </edm:ProvidedCHO>
${r.place ? `  <edm:Place rdf:about="${place}"><skos:prefLabel>${esc(r.place.name)}</skos:prefLabel><wgs84_pos:lat>${r.place.lat}</wgs84_pos:lat><wgs84_pos:long>${r.place.long}</wgs84_pos:long></edm:Place>\n` : ''}${r.creator ? `  <edm:Agent rdf:about="http://d-nb.info/gnd/${r.creator.gnd}"><skos:prefLabel>${esc(r.creator.name)}</skos:prefLabel></edm:Agent>\n` : ''}${r.media
    .map(
      (url, i) =>
        `  <edm:WebResource rdf:about="${esc(url)}">${r.types?.[i] ? `<ebucore:hasMimeType>${r.types[i]}</ebucore:hasMimeType>` : ''}<dc:description>${esc(r.title)} ${i + 1}</dc:description></edm:WebResource>\n`,
    )
    .join('')}  <ore:Aggregation rdf:about="${cho}#aggregation">
    <edm:aggregatedCHO rdf:resource="${cho}"/>
    <edm:dataProvider>Testarchiv</edm:dataProvider>
${first ? `    <edm:isShownBy rdf:resource="${esc(first)}"/>\n    <edm:object rdf:resource="${esc(first)}"/>\n` : ''}${views.map((v) => `    <edm:hasView rdf:resource="${esc(v)}"/>\n`).join('')}    <edm:isShownAt rdf:resource="http://example.org/record/${r.id}"/>
    <edm:provider>Testaggregator</edm:provider>
    <edm:rights rdf:resource="${license}"/>
  </ore:Aggregation>
</rdf:RDF>
`;
}

/** A folder of one file per record, for ingestItems. */
export function writeEdmMediaRecords(records: readonly EdmMediaRecord[]): string {
  const dir = join(tempDir('edm-media'), 'records');
  mkdirSync(dir);
  for (const r of records) writeFileSync(join(dir, `${r.id}.xml`), edmMediaXml(r));
  return dir;
}
