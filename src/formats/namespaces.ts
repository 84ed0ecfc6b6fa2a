// Namespaces of the cortex item package and where each element name belongs.
//
// Why: the JSON form of an item package drops namespace prefixes (docs/decisions.md,
// "The JSON form"; spec 2.4), so writing the XML form back (jsonToCortex.ts) must know,
// from the local name alone, which namespace an element is in. The tables below were built
// from the real packages in fixtures/items/cortex/ (both cortex XML files, where
// the namespaces are written out, and goethe.json, bare_id.json, multi_uri.json, where
// only local names are left), completed with the EDM definitions of the same classes.
//
// Zones of a cortex document:
// - `cortex` and its parts, and everything outside `edm` and `view`: cortex namespace
//   (the default namespace of the real files).
// - below `view`: the item namespace (`ns4:` in the real files).
// - `edm` itself is a cortex element; `RDF` inside it is rdf:RDF, and every element below
//   that is looked up with rdfElementNamespace().
//
// CIDOC-CRM: the real cortex files bind `crm:` to
// http://www.cidoc-crm.org/rdfs/cidoc_crm_v5.0.2_english_label.rdfs# , not to the current
// http://www.cidoc-crm.org/cidoc-crm/ ; we follow the real files (NS.crm), since the cortex
// XML is the canonical form. NS_CRM_CURRENT is kept for reference only.

export const NS = {
  cortex: 'http://www.deutsche-digitale-bibliothek.de/cortex',
  item: 'http://www.deutsche-digitale-bibliothek.de/item',
  institution: 'http://www.deutsche-digitale-bibliothek.de/institution',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  edm: 'http://www.europeana.eu/schemas/edm/',
  ore: 'http://www.openarchives.org/ore/terms/',
  dc: 'http://purl.org/dc/elements/1.1/',
  dcterms: 'http://purl.org/dc/terms/',
  skos: 'http://www.w3.org/2004/02/skos/core#',
  wgs84: 'http://www.w3.org/2003/01/geo/wgs84_pos#',
  crm: 'http://www.cidoc-crm.org/rdfs/cidoc_crm_v5.0.2_english_label.rdfs#',
  ddb: 'http://www.deutsche-digitale-bibliothek.de/edm/',
  // Used by EDM for some Agent/Place properties (only null-valued in the samples).
  owl: 'http://www.w3.org/2002/07/owl#',
  foaf: 'http://xmlns.com/foaf/0.1/',
  rdaGr2: 'http://rdvocab.info/ElementsGr2/',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
  xml: 'http://www.w3.org/XML/1998/namespace',
} as const;

export type NamespaceKey = keyof typeof NS;

export const NS_CRM_CURRENT = 'http://www.cidoc-crm.org/cidoc-crm/';

/** Prefixes we write; "" is the default namespace. ns2/ns4 are those of the real files. */
export const PREFIX: Readonly<Record<NamespaceKey, string>> = {
  cortex: '',
  item: 'ns4',
  institution: 'ns2',
  rdf: 'rdf',
  edm: 'edm',
  ore: 'ore',
  dc: 'dc',
  dcterms: 'dcterms',
  skos: 'skos',
  wgs84: 'wgs84_pos',
  crm: 'crm',
  ddb: 'ddb',
  owl: 'owl',
  foaf: 'foaf',
  rdaGr2: 'rdaGr2',
  xsi: 'xsi',
  xml: 'xml',
};

/** Classes: the elements directly inside rdf:RDF. */
export const RDF_CLASS_NAMESPACES: Readonly<Record<string, string>> = {
  RDF: NS.rdf,
  Aggregation: NS.ore,
  Proxy: NS.ore,
  ProvidedCHO: NS.edm,
  WebResource: NS.edm,
  Agent: NS.edm,
  Event: NS.edm,
  Place: NS.edm,
  TimeSpan: NS.edm,
  PhysicalThing: NS.edm,
  Concept: NS.skos,
  LinguisticSystem: NS.dcterms,
};

/** Properties whose local name alone decides the namespace. */
export const RDF_PROPERTY_NAMESPACES: Readonly<Record<string, string>> = {
  // edm
  aggregatedCHO: NS.edm,
  dataProvider: NS.edm,
  isShownAt: NS.edm,
  isShownBy: NS.edm,
  object: NS.edm,
  provider: NS.edm,
  hasView: NS.edm,
  intermediateProvider: NS.edm,
  currentLocation: NS.edm,
  hasType: NS.edm,
  hasMet: NS.edm,
  happenedAt: NS.edm,
  occuredAt: NS.edm,
  occurredAt: NS.edm,
  wasPresentAt: NS.edm,
  isNextInSequence: NS.edm,
  isRelatedTo: NS.edm,
  begin: NS.edm,
  end: NS.edm,
  isDerivativeOf: NS.edm,
  isRepresentationOf: NS.edm,
  isSimilarTo: NS.edm,
  isSuccessorOf: NS.edm,
  realizes: NS.edm,
  incorporates: NS.edm,
  // dc
  title: NS.dc,
  description: NS.dc,
  creator: NS.dc,
  contributor: NS.dc,
  identifier: NS.dc,
  language: NS.dc,
  publisher: NS.dc,
  date: NS.dc,
  format: NS.dc,
  source: NS.dc,
  relation: NS.dc,
  coverage: NS.dc,
  // dcterms
  isPartOf: NS.dcterms,
  hasPart: NS.dcterms,
  extent: NS.dcterms,
  issued: NS.dcterms,
  created: NS.dcterms,
  bibliographicCitation: NS.dcterms,
  spatial: NS.dcterms,
  temporal: NS.dcterms,
  alternative: NS.dcterms,
  medium: NS.dcterms,
  provenance: NS.dcterms,
  references: NS.dcterms,
  isReferencedBy: NS.dcterms,
  hasVersion: NS.dcterms,
  isVersionOf: NS.dcterms,
  conformsTo: NS.dcterms,
  hasFormat: NS.dcterms,
  isFormatOf: NS.dcterms,
  tableOfContents: NS.dcterms,
  // skos
  prefLabel: NS.skos,
  altLabel: NS.skos,
  hiddenLabel: NS.skos,
  notation: NS.skos,
  note: NS.skos,
  broader: NS.skos,
  narrower: NS.skos,
  related: NS.skos,
  exactMatch: NS.skos,
  closeMatch: NS.skos,
  inScheme: NS.skos,
  // rdf
  value: NS.rdf,
  // wgs84_pos
  lat: NS.wgs84,
  long: NS.wgs84,
  alt: NS.wgs84,
  // DDB extension of EDM
  hierarchyType: NS.ddb,
  hierarchyPosition: NS.ddb,
  aggregationEntity: NS.ddb,
  aggregator: NS.ddb,
  // owl, foaf, rdaGr2 (EDM Agent/Place properties)
  sameAs: NS.owl,
  name: NS.foaf,
  biographicalInformation: NS.rdaGr2,
  dateOfBirth: NS.rdaGr2,
  dateOfDeath: NS.rdaGr2,
  dateOfEstablishment: NS.rdaGr2,
  dateOfTermination: NS.rdaGr2,
  gender: NS.rdaGr2,
  placeOfBirth: NS.rdaGr2,
  placeOfDeath: NS.rdaGr2,
  professionOrOccupation: NS.rdaGr2,
};

/** The EDM type vocabulary (edm:type on a ProvidedCHO). */
const EDM_TYPES = new Set(['TEXT', 'IMAGE', 'SOUND', 'VIDEO', '3D']);

/** Where an element sits inside rdf:RDF, as far as the namespace choice needs it. */
export interface RdfContext {
  /** Local name of the nearest enclosing class element (Agent, ProvidedCHO, ...). */
  className: string | undefined;
  /** The element's JSON value (one occurrence). */
  value: unknown;
  /** Position of this occurrence among the occurrences of the same name, and their count. */
  index: number;
  count: number;
}

function isReference(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    (Object.hasOwn(value, '@resource') || Object.hasOwn(value, 'resource'))
  );
}

function literalText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const text = (value as Record<string, unknown>)['$'];
    return typeof text === 'string' ? text : undefined;
  }
  return undefined;
}

/**
 * Namespace of an element below rdf:RDF, from its local name and its context.
 *
 * Ambiguous names, decided by context:
 * - `type`: on a ProvidedCHO a literal from the EDM type vocabulary (TEXT, IMAGE, SOUND,
 *   VIDEO, 3D) is edm:type, any other value dc:type; on a WebResource it is dc:type (the
 *   media type reference, as in both cortex files); elsewhere a reference (`@resource`)
 *   is rdf:type (Agent's sector, as in both cortex files) and a literal is dc:type.
 * - `rights`: edm:rights and dcterms:rights share the local name. When a class has several
 *   `rights`, the first is edm:rights and the others dcterms:rights (the order of the
 *   real files: edm:rights, then dcterms:rights); a single one is dcterms:rights (in
 *   4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22.xml and goethe.json the lone `rights` is dcterms).
 * - `subject`: a reference is dcterms:subject, a literal dc:subject (4XUD...xml).
 * - names of the CIDOC-CRM form `P<n>_...` are crm properties.
 * - class names (the table RDF_CLASS_NAMESPACES) win over property names.
 * - anything else unknown is in the DDB extension namespace (NS.ddb).
 */
export function rdfElementNamespace(local: string, ctx: RdfContext): string {
  const known = RDF_CLASS_NAMESPACES[local] ?? RDF_PROPERTY_NAMESPACES[local];
  if (known !== undefined) return known;
  switch (local) {
    case 'type': {
      if (ctx.className === 'ProvidedCHO') {
        const text = literalText(ctx.value);
        return !isReference(ctx.value) && text !== undefined && EDM_TYPES.has(text) ? NS.edm : NS.dc;
      }
      if (ctx.className === 'WebResource') return NS.dc;
      return isReference(ctx.value) ? NS.rdf : NS.dc;
    }
    case 'rights':
      return ctx.count > 1 && ctx.index === 0 ? NS.edm : NS.dcterms;
    case 'subject':
      return isReference(ctx.value) ? NS.dcterms : NS.dc;
    default:
      return /^P[0-9]+[a-z]?_/.test(local) ? NS.crm : NS.ddb;
  }
}

/** Attribute names that are RDF syntax attributes inside `edm` and `view`. */
export const RDF_ATTRIBUTES: ReadonlySet<string> = new Set(['about', 'resource', 'datatype']);

/** The order of the parts of a cortex document (docs/decisions.md, "Item package"). */
export const CORTEX_PART_ORDER: readonly string[] = [
  'properties',
  'edm',
  'indexing-profile',
  'preview',
  'view',
  'metadata-record',
  'provider-info',
  'aggregator-info',
  'binaries',
];

/** Namespace URI -> the prefix we write for it. */
export function prefixOf(namespace: string): string | undefined {
  for (const key of Object.keys(NS) as NamespaceKey[]) {
    if (NS[key] === namespace) return PREFIX[key];
  }
  return undefined;
}
