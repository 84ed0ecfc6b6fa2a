/**
 * Shared by the EDM reader tests: where the real records are (fixtures/README.md says
 * where they come from), how to feed them to the reader, and short forms of its results
 * for whole-value assertions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { XmlElement } from '../../src/formats/xmlTree.js';
import { readEdmRecords, type ReadEdmOptions } from '../../src/ingest/edm/readEdmRecords.js';
import type { EdmReadResult, EdmRecord } from '../../src/ingest/edm/types.js';

export const EDM_DIR = fileURLToPath(new URL('../../fixtures/items/edm/', import.meta.url));
export const HOPE_DIR = `${EDM_DIR}hope-combat/`;
export const MIMO_DIR = `${EDM_DIR}mimo/`;
export const MISC_RECORD = `${EDM_DIR}misc/europeana-valid-record.xml`;
export const CORTEX_CHAPTER = fileURLToPath(new URL('../../fixtures/items/cortex/NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR.xml', import.meta.url));

export const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const OAI_NS = 'http://www.openarchives.org/OAI/2.0/';

/** HOPE "Combat": an issue, its year and the root (linked by dcterms:isPartOf in the proxies). */
export const HOPE_ISSUE = `${HOPE_DIR}Item_35834473.xml`;
export const HOPE_YEAR = `${HOPE_DIR}Item_35837931.xml`;
export const HOPE_ROOT = `${HOPE_DIR}Item_35838947.xml`;

export function filesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith('.xml'))
    .sort()
    .map((n) => dir + n);
}

export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}

/** The rdf:RDF element of a one-record file, as written (XML declaration dropped). */
export function rdfText(path: string): string {
  const text = readText(path);
  return text.slice(text.indexOf('<rdf:RDF'), text.lastIndexOf('</rdf:RDF>') + '</rdf:RDF>'.length);
}

async function* chunksOf(input: string | Buffer, size: number): AsyncGenerator<Buffer | string> {
  if (size <= 0) {
    yield input;
    return;
  }
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** Reads `input` given whole (size 0) or in Buffers of `size` bytes. */
export async function readAll(input: string | Buffer, options: ReadEdmOptions & { chunkSize?: number } = {}): Promise<EdmReadResult[]> {
  const results: EdmReadResult[] = [];
  for await (const result of readEdmRecords(chunksOf(input, options.chunkSize ?? 0), options)) results.push(result);
  return results;
}

export function recordsOf(results: EdmReadResult[]): EdmRecord[] {
  return results.flatMap((r) => (r.kind === 'record' ? [r.record] : []));
}

export function errorsOf(results: EdmReadResult[]): Array<{ position: string; reason: string }> {
  return results.flatMap((r) => (r.kind === 'error' ? [{ position: r.position, reason: r.reason }] : []));
}

export const isElement = (node: XmlElement | string): node is XmlElement => typeof node !== 'string';

export function elementsOf(element: XmlElement): XmlElement[] {
  return element.children.filter(isElement);
}

export function choOf(record: EdmRecord): XmlElement {
  const cho = elementsOf(record.rdf).find((e) => e.local === 'ProvidedCHO');
  if (cho === undefined) throw new Error(`no ProvidedCHO in ${record.choUri}`);
  return cho;
}

/** A property as one line: `prefix:name [attr=value ...] text`, for whole-list assertions. */
export function propertyLine(property: XmlElement): string {
  const attributes = property.attributes.map((a) => ` ${a.name}=${a.value}`).join('');
  const text = property.children.filter((c): c is string => typeof c === 'string').join('');
  return `${property.name}${attributes}${text === '' ? '' : ` ${text}`}`;
}

/** The classes in a record's rdf:RDF, as `name about`. */
export function classLines(record: EdmRecord): string[] {
  return elementsOf(record.rdf).map(
    (e) => `${e.name} ${e.attributes.find((a) => a.namespace === RDF_NS && a.local === 'about')?.value ?? '-'}`,
  );
}

/** The element without whitespace-only text directly inside it (the reader drops that in rdf:RDF). */
export function withoutWhitespaceChildren(element: XmlElement): XmlElement {
  return { ...element, children: element.children.filter((c) => typeof c !== 'string' || c.trim() !== '') };
}

/**
 * The top-level descriptions of a one-line-per-record fixture file, as written: the
 * classes used in fixtures/items/edm/ never nest in themselves, so a lazy match suffices.
 */
export function descriptionTexts(rdf: string): string[] {
  const classes =
    'edm:ProvidedCHO|edm:WebResource|edm:Place|edm:Agent|skos:Concept|edm:TimeSpan|ore:Aggregation|ore:Proxy|edm:Proxy|edm:EuropeanaAggregation';
  return [...rdf.matchAll(new RegExp(`<(${classes})\\b[^>]*?(?:/>|>[\\s\\S]*?</\\1>)`, 'g'))].map((m) => m[0]);
}

/** The start tag of a fixture file's rdf:RDF. */
export function rdfStartTag(rdf: string): string {
  return rdf.slice(0, rdf.indexOf('>') + 1);
}
