/**
 * The shapes passed between the EDM reader, the package builder and the
 * harvester. Reader: src/ingest/edm/readEdmRecords.ts; builder:
 * src/ingest/edm/buildPackage.ts; harvester: src/ingest/oai/.
 */
import type { XmlElement } from '../../formats/xmlTree.js';

/** The header of a record read from an OAI-PMH response (OAI-PMH 2.0, section 2.5). */
export interface OaiHeader {
  identifier: string;
  datestamp: string | null;
  /** `<header status="deleted">`: the record has no metadata and must be removed. */
  deleted: boolean;
  sets: string[];
}

/** One EDM record, normalised to the DDB form. */
export interface EdmRecord {
  /** `rdf:about` of the record's edm:ProvidedCHO. */
  choUri: string;
  /**
   * An `rdf:RDF` element in the DDB form: the edm:ProvidedCHO carries the
   * descriptive properties (Europeana's ore:Proxy properties folded onto it),
   * and every contextual class of the record (ore:Aggregation, edm:WebResource,
   * edm:Agent, edm:Place, skos:Concept, edm:TimeSpan, ...) is kept. The same
   * shape as the `rdf:RDF` inside the `edm` part of a cortex package.
   */
  rdf: XmlElement;
  /** The record as read (its source XML text), for the package's `metadata-record`. */
  sourceXml: string;
}

export type EdmReadResult =
  | { kind: 'record'; record: EdmRecord; position: string; oai?: OaiHeader }
  | { kind: 'deleted'; oai: OaiHeader; position: string }
  | { kind: 'error'; reason: string; position: string; oai?: OaiHeader }
  /** Said of the file, kept all the same: its DOCTYPE declaration, which no record carries on. */
  | { kind: 'note'; note: string; position: string };
