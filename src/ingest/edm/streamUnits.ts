// What EdmStream hands to RecordAssembler: the parts of a document that make records,
// in document order. Positions are 1-based lines and columns of the input.

import type { XmlElement } from '../../formats/xmlTree.js';
import type { DescriptionKind } from './edmVocabulary.js';
import type { OaiHeader } from './types.js';

/** An element directly inside rdf:RDF: a CHO, proxy, aggregation, web resource or contextual entity. */
export interface RdfDescription {
  kind: DescriptionKind;
  about: string | null;
  /** The element; null when it was dropped for passing the size limit. */
  element: XmlElement | null;
  /** Its source text; "" when dropped. */
  source: string;
  /** Offset of its `<` in the input, which orders descriptions. */
  start: number;
  line: number;
  column: number;
  oversized: boolean;
  /** What is wrong inside it (undeclared prefixes), as sentences for an error reason. */
  problems: string[];
}

/** One rdf:RDF element as read. */
export interface RdfUnit {
  /** The rdf:RDF element with its attributes and no children. */
  shell: XmlElement;
  /** Its start tag as written, plus the namespace declarations it inherits from outer elements. */
  openTag: string;
  /** Its end tag as written; "" for `<rdf:RDF/>`. */
  closeTag: string;
  /** Descriptions and the text between them (whitespace, comments), in document order. */
  content: Array<RdfDescription | string>;
  line: number;
  column: number;
  /** Problems in its own start tag. */
  problems: string[];
}

export type StreamUnit =
  | { kind: 'rdf'; rdf: RdfUnit; oai: OaiHeader | null }
  | { kind: 'deleted'; oai: OaiHeader; line: number; column: number }
  | { kind: 'oaiRecordWithoutRdf'; oai: OaiHeader | null; line: number; column: number }
  | { kind: 'error'; reason: string; line: number; column: number }
  /** A DOCTYPE declaration in the prolog, which no record takes over (src/formats/xmlDoctype.ts). */
  | { kind: 'doctype'; doctype: string; line: number; column: number }
  /**
   * Reading stopped (broken XML, not UTF-8, nested too deep) inside an rdf:RDF: its
   * descriptions read completely before the break, and the one open at it, if any.
   */
  | { kind: 'break'; reason: string; line: number; column: number; rdf: RdfUnit; open: RdfDescription | null; oai: OaiHeader | null };
