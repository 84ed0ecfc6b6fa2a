/**
 * Minimal but real-shaped cortex packages written by the tests, for
 * hierarchies the fixtures do not have (deep chains, orphans, cycles).
 * The shape follows fixtures/items/cortex/NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR.xml.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './tempDir.js';

export interface TestPackage {
  id: string;
  title?: string;
  /** Item id of the parent (written as a DDB item URI in dcterms:isPartOf). */
  parent?: string;
  htype?: string;
  position?: string;
  aggregationEntity?: boolean;
  /** Item id of the sibling before this one (edm:isNextInSequence). */
  previous?: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function cortexXml(p: TestPackage): string {
  const uri = (id: string) => `http://www.deutsche-digitale-bibliothek.de/item/${id}`;
  const cho = [
    p.title === undefined ? '' : `<dc:title>${esc(p.title)}</dc:title>`,
    p.htype === undefined ? '' : `<ddb:hierarchyType>${esc(p.htype)}</ddb:hierarchyType>`,
    p.aggregationEntity === undefined ? '' : `<ddb:aggregationEntity>${p.aggregationEntity}</ddb:aggregationEntity>`,
    p.position === undefined ? '' : `<ddb:hierarchyPosition>${esc(p.position)}</ddb:hierarchyPosition>`,
    p.parent === undefined ? '' : `<dcterms:isPartOf rdf:resource="${esc(uri(p.parent))}"/>`,
    p.previous === undefined ? '' : `<edm:isNextInSequence rdf:resource="${esc(uri(p.previous))}"/>`,
  ].join('');
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<cortex xmlns="http://www.deutsche-digitale-bibliothek.de/cortex" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" ' +
    'xmlns:edm="http://www.europeana.eu/schemas/edm/" xmlns:dc="http://purl.org/dc/elements/1.1/" ' +
    'xmlns:dcterms="http://purl.org/dc/terms/" xmlns:ddb="http://www.deutsche-digitale-bibliothek.de/edm/">' +
    `<properties><item-id>${esc(p.id)}</item-id><ingest-id>1</ingest-id><ingest-date>26-11-21 12:00:00</ingest-date><cortex-type>Kultur</cortex-type></properties>` +
    `<edm><rdf:RDF><edm:ProvidedCHO rdf:about="${esc(uri(p.id))}">${cho}</edm:ProvidedCHO></rdf:RDF></edm>` +
    `<indexing-profile><item-id>${esc(p.id)}</item-id></indexing-profile>` +
    '</cortex>'
  );
}

/** Writes each package to its own file in a new temporary directory; returns the directory. */
export function writePackages(packages: readonly TestPackage[], dir = tempDir('pkgs')): string {
  for (const p of packages) writeFileSync(join(dir, `${p.id}.xml`), cortexXml(p));
  return dir;
}
