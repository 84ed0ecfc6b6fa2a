/**
 * The prefixes the RDF answers write (Turtle's @prefix, the JSON-LD context; docs/linked-data.md):
 * those of EDM as the DDB and Europeana write it (./../namespaces.ts), and those of the GND
 * ontology and schema.org that persons are described with, as lobid-gnd and the DNB do.
 */
import { NS } from '../namespaces.js';

export const VOCAB = {
  rdf: NS.rdf,
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  owl: NS.owl,
  edm: NS.edm,
  ore: NS.ore,
  dc: NS.dc,
  dcterms: NS.dcterms,
  skos: NS.skos,
  foaf: NS.foaf,
  wgs84_pos: NS.wgs84,
  rdaGr2: NS.rdaGr2,
  crm: NS.crm,
  ddb: NS.ddb,
  /** The GND ontology (https://d-nb.info/standards/elementset/gnd), prefix as the DNB writes it. */
  gndo: 'https://d-nb.info/standards/elementset/gnd#',
  /** schema.org in RDF: its http namespace, as schema.org's own RDF releases write it. */
  schema: 'http://schema.org/',
} as const;

/** The prefixes of an item's EDM answers. */
export const EDM_PREFIXES: Readonly<Record<string, string>> = {
  rdf: VOCAB.rdf,
  rdfs: VOCAB.rdfs,
  xsd: VOCAB.xsd,
  owl: VOCAB.owl,
  edm: VOCAB.edm,
  ore: VOCAB.ore,
  dc: VOCAB.dc,
  dcterms: VOCAB.dcterms,
  skos: VOCAB.skos,
  foaf: VOCAB.foaf,
  wgs84_pos: VOCAB.wgs84_pos,
  rdaGr2: VOCAB.rdaGr2,
  crm: VOCAB.crm,
  ddb: VOCAB.ddb,
};

/** The prefixes of a person's answers. */
export const PERSON_PREFIXES: Readonly<Record<string, string>> = {
  rdf: VOCAB.rdf,
  rdfs: VOCAB.rdfs,
  xsd: VOCAB.xsd,
  owl: VOCAB.owl,
  gndo: VOCAB.gndo,
  schema: VOCAB.schema,
};
