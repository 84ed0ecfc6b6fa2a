/**
 * The `indexing-profile` part: the facets of spec 2.4 derived from the EDM
 * record. Each rule was worked out by comparing the `edm` and the
 * `indexing-profile` of the real packages (4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22,
 * NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR, goethe.json); docs/edm-mapping.md gives
 * them field by field. A facet without values is left out, as there.
 */
import { NS } from '../../formats/namespaces.js';
import { affiliateFacets } from './affiliates.js';
import { node, textNode, type Node } from './cortexWriter.js';
import { languageCode } from './languages.js';
import { mediaTypeOfEdmType, NO_MEDIA_TYPE } from '../../domain/mediaTypes.js';
import type { ProviderDirectory } from './providers.js';
import { providerNames, recordSector, type RecordProvider } from './providerInfo.js';
import { aboutOf, isHttpUri, literalOf, literals, props, type RdfGraph, resourceOf, resources } from './rdfGraph.js';
import { timeCodes, yearRange, type YearRange } from './timeVocabulary.js';

export type Facets = Array<[name: string, values: string[]]>;

const TIME_CODE = /^time_\d+$/;
const MEDIA_TYPE_CODE = /^mediatype_\d+$/;
export const DDB_ORGANIZATION = 'http://www.deutsche-digitale-bibliothek.de/organization/';

const unique = (values: string[]): string[] => [...new Set(values)];

/** The CHO's own dates (free text), and the begin/end of every edm:TimeSpan of the record. */
function dateTexts(graph: RdfGraph): string[] {
  const texts = [
    ...literals(graph.cho, NS.dc, 'date'),
    ...literals(graph.cho, NS.dcterms, 'created'),
    ...literals(graph.cho, NS.dcterms, 'issued'),
    ...literals(graph.cho, NS.dcterms, 'temporal'),
  ];
  for (const span of graph.classes(NS.edm, 'TimeSpan')) {
    const begin = literals(span, NS.edm, 'begin')[0];
    const end = literals(span, NS.edm, 'end')[0];
    if (begin !== undefined || end !== undefined) texts.push([begin, end].filter(Boolean).join(' - '));
  }
  return texts;
}

/**
 * time_fct: the skos:notation (time_NNNNN) of the record's edm:TimeSpans where the DDB
 * has already classified it (4XUD...); otherwise the codes of the years its dates name
 * (timeVocabulary.ts). Also returns the whole range of years, for begin_time/end_time.
 */
export function timeOf(graph: RdfGraph): { codes: string[]; range: YearRange | undefined } {
  const ranges = dateTexts(graph)
    .map(yearRange)
    .filter((r): r is YearRange => r !== undefined);
  const range =
    ranges.length === 0 ? undefined : { from: Math.min(...ranges.map((r) => r.from)), to: Math.max(...ranges.map((r) => r.to)) };
  const notations = graph
    .classes(NS.edm, 'TimeSpan')
    .flatMap((s) => literals(s, NS.skos, 'notation'))
    .filter((n) => TIME_CODE.test(n));
  return { codes: notations.length > 0 ? unique(notations) : unique(ranges.flatMap(timeCodes)), range };
}

/** place_fct(_normdata): every edm:Place of the record in document order, and literal dcterms:spatial. */
function placeFacets(graph: RdfGraph): Facets {
  const places = graph.classes(NS.edm, 'Place');
  const names = [
    ...places.map((p) => graph.labelOf(p)).filter((s): s is string => s !== undefined),
    ...literals(graph.cho, NS.dcterms, 'spatial'),
  ];
  const uris = places.map(aboutOf).filter((u): u is string => u !== undefined && isHttpUri(u));
  return [
    ['place_fct_normdata', unique(uris)],
    ['place_fct', names],
  ];
}

const KEYWORD_REFERENCES: ReadonlyArray<[string, string]> = [
  [NS.edm, 'hasType'],
  [NS.dc, 'type'],
  [NS.dc, 'subject'],
  [NS.dcterms, 'subject'],
];

/**
 * keywords_fct(_normdata): one value per skos:Concept the CHO references by edm:hasType,
 * dc:type, dc:subject or dcterms:subject (its label; its URI as normdata when it is an
 * http(s) URI), in that order: 4XUD... has Kunstsammlung, Druckgraphik (edm:hasType)
 * and Druckgraphik (dcterms:subject -> GND). References to Agents are affiliates, not
 * keywords. Literal subjects count only when the CHO gives none as a reference, since
 * the DDB form repeats each referenced subject as a literal (4XUD: "Goethe, Cornelia").
 */
function keywordFacets(graph: RdfGraph): Facets {
  const seen = new Set<string>();
  const labels: string[] = [];
  const uris: string[] = [];
  for (const [ns, local] of KEYWORD_REFERENCES) {
    for (const uri of resources(graph.cho, ns, local)) {
      if (seen.has(uri)) continue;
      const concept = graph.entity(uri, NS.skos, 'Concept');
      if (concept === undefined && graph.entity(uri) !== undefined) continue; // an Agent, Place, ...
      seen.add(uri);
      const label = graph.labelOf(concept);
      if (label !== undefined) labels.push(label);
      if (isHttpUri(uri)) uris.push(uri);
    }
  }
  const subjectRefs = [...props(graph.cho, NS.dc, 'subject'), ...props(graph.cho, NS.dcterms, 'subject')];
  if (!subjectRefs.some((el) => resourceOf(el) !== undefined)) {
    labels.push(...subjectRefs.map(literalOf).filter((s): s is string => s !== undefined));
  }
  return [
    ['keywords_fct', labels],
    ['keywords_fct_normdata', uris],
  ];
}

/** language_fct: dc:language of the CHO as ISO 639-2/B codes (languages.ts). */
function languageFacet(graph: RdfGraph): string[] {
  return unique(
    props(graph.cho, NS.dc, 'language')
      .map((el) => resourceOf(el) ?? literalOf(el))
      .filter((s): s is string => s !== undefined)
      .map(languageCode),
  );
}

/**
 * type_fct: the DDB media types (notation mediatype_NNN of the skos:Concept that the
 * web resources' dc:type references, as in both real packages); otherwise from edm:type;
 * otherwise mediatype_007 ("ohne Medientyp").
 */
export function mediaTypesOf(graph: RdfGraph): string[] {
  const fromResources = graph
    .classes(NS.edm, 'WebResource')
    .flatMap((wr) => resources(wr, NS.dc, 'type'))
    .flatMap((uri) => graph.notationsOf(uri))
    .filter((n) => MEDIA_TYPE_CODE.test(n));
  if (fromResources.length > 0) return unique(fromResources);
  const fromEdmType = literals(graph.cho, NS.edm, 'type')
    .map(mediaTypeOfEdmType)
    .filter((s): s is string => s !== undefined);
  return fromEdmType.length > 0 ? unique(fromEdmType) : [NO_MEDIA_TYPE];
}

/**
 * provider_fct_normdata: the DDB organisation URI of each provider the providers file
 * gives a provider-ddb-id (as in the newer real packages, bare_id.json), and the
 * http(s) URI by which the record references its data provider.
 */
function providerNormdata(names: string[], provider: RecordProvider, directory: ProviderDirectory | undefined): string[] {
  const uris: string[] = [];
  if (provider.entry?.providerDdbId) uris.push(DDB_ORGANIZATION + provider.entry.providerDdbId);
  else if (provider.uri) uris.push(provider.uri);
  for (const name of names) {
    const ddbId = directory?.find({ name })?.providerDdbId;
    if (ddbId) uris.push(DDB_ORGANIZATION + ddbId);
  }
  return unique(uris);
}

export function deriveFacets(
  graph: RdfGraph,
  provider: RecordProvider,
  directory: ProviderDirectory | undefined,
  lastUpdate: string,
): Facets {
  const affiliates = affiliateFacets(graph);
  const names = providerNames(graph);
  const sector = recordSector(provider);
  return [
    ['time_fct', timeOf(graph).codes],
    ...placeFacets(graph),
    ['affiliate_fct_normdata', affiliates.affiliate_fct_normdata],
    ['affiliate_fct_role_normdata', affiliates.affiliate_fct_role_normdata],
    ['affiliate_fct', affiliates.affiliate_fct],
    ['affiliate_fct_role', affiliates.affiliate_fct_role],
    ...keywordFacets(graph),
    ['language_fct', languageFacet(graph)],
    ['type_fct', mediaTypesOf(graph)],
    ['sector_fct', sector ? [sector] : []],
    ['provider_fct_normdata', providerNormdata(names, provider, directory)],
    ['provider_fct', names],
    ['last_update', [lastUpdate]],
  ];
}

export function indexingProfilePart(itemId: string, facets: Facets): Node {
  return node(
    NS.cortex,
    'indexing-profile',
    [],
    [
      textNode(NS.cortex, 'item-id', itemId),
      ...facets
        .filter(([, values]) => values.length > 0)
        .map(([name, values]) =>
          node(
            NS.cortex,
            'facet',
            [{ name: 'name', value: name }],
            values.map((v) => textNode(NS.cortex, 'value', v)),
          ),
        ),
    ],
  );
}
