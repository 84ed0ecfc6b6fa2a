/**
 * The data provider of a record, and the `provider-info` part built from it
 * (spec 2.4: "Unset values are empty strings").
 *
 * In the DDB form the ore:Aggregation names its data provider twice: as a
 * literal and as a reference to an edm:Agent that carries the sector
 * (rdf:type -> skos:Concept with notation sec_NN) and its parent institution
 * (dcterms:isPartOf -> edm:Agent); see both real cortex packages. A
 * Europeana record has only the literal. What no record says (ids, logo,
 * coordinates, state, e-mail) comes from the operator's providers file.
 */
import { NS } from '../../formats/namespaces.js';
import type { XmlElement } from '../../formats/xmlTree.js';
import { node, textNode, type Node } from './cortexWriter.js';
import { domainOfSector, type ProviderDirectory, type ProviderInfo } from './providers.js';
import { sectorOfName } from './sectorOfName.js';
import { isHttpUri, literals, type RdfGraph, resourceOf, resources, props, literalOf } from './rdfGraph.js';

export interface RecordProvider {
  /** The name the record gives (the literal, else the label of its Agent); "" if none. */
  name: string;
  /** An http(s) URI by which the record references it; "" if none. */
  uri: string;
  /** Sector code from the record's Agent (DDB form); "" if none. */
  sector: string;
  /** The providers-file entry, when the operator's file has one. */
  entry: ProviderInfo | undefined;
  /** The entry of its parent institution (provider-parent-id). */
  parent: ProviderInfo | undefined;
}

const SECTOR_CODE = /^sec_\d+$/;

/**
 * The sector of the record's data provider (docs/edm-mapping.md, `sector_fct`): the one its
 * Agent names (DDB form), else the providers file's, else the one its name says
 * (./sectorOfName.ts); "" when none does.
 */
export function recordSector(provider: RecordProvider): string {
  return provider.sector || provider.entry?.sector || sectorOfName(provider.entry?.name || provider.name);
}

/** The sector codes an Agent's rdf:type references carry (DDB form). */
export function agentSector(graph: RdfGraph, agent: XmlElement | undefined): string {
  for (const type of resources(agent, NS.rdf, 'type')) {
    const code = graph.notationsOf(type).find((n) => SECTOR_CODE.test(n));
    if (code) return code;
  }
  return '';
}

export function dataProviderOf(graph: RdfGraph, directory: ProviderDirectory | undefined): RecordProvider {
  const elements = props(graph.aggregation, NS.edm, 'dataProvider');
  const refs = elements.map(resourceOf).filter((r): r is string => r !== undefined);
  const agent = refs.map((r) => graph.entity(r, NS.edm, 'Agent')).find((a) => a !== undefined);
  const name = elements.map(literalOf).find((s) => s !== undefined) ?? graph.labelOf(agent) ?? '';
  const uri = refs.find(isHttpUri) ?? '';
  const entry = directory?.find({ name, uri }) ?? (agent ? directory?.find({ name: graph.labelOf(agent) }) : undefined);
  return { name, uri, sector: agentSector(graph, agent), entry, parent: entry ? directory?.byId(entry.providerParentId) : undefined };
}

const PROVIDER_PROPERTIES: ReadonlyArray<[string, string]> = [
  [NS.edm, 'dataProvider'],
  [NS.ddb, 'aggregator'],
  [NS.edm, 'intermediateProvider'],
  [NS.edm, 'provider'],
];

/**
 * The names for `provider_fct`. DDB form: the labels of the provider Agents the
 * Aggregation references (data provider, aggregator) and of their parents
 * (dcterms:isPartOf), in document order: NF42... lists the aggregator zvdd, the SUB
 * Göttingen and its university, 4XUD... the Goethe-Haus and its parent, whose label is
 * the same (kept twice, as there). Without such Agents: the literals of
 * edm:dataProvider, edm:intermediateProvider and edm:provider.
 */
export function providerNames(graph: RdfGraph): string[] {
  const agents = new Set<XmlElement>();
  const visit = (uri: string): void => {
    const agent = graph.entity(uri, NS.edm, 'Agent');
    if (agent === undefined || agents.has(agent)) return;
    agents.add(agent);
    for (const parent of resources(agent, NS.dcterms, 'isPartOf')) visit(parent);
  };
  for (const [ns, local] of PROVIDER_PROPERTIES) for (const uri of resources(graph.aggregation, ns, local)) visit(uri);
  if (agents.size > 0) {
    return graph
      .classes(NS.edm, 'Agent')
      .filter((a) => agents.has(a))
      .map((a) => graph.labelOf(a))
      .filter((s): s is string => s !== undefined);
  }
  return PROVIDER_PROPERTIES.flatMap(([ns, local]) => literals(graph.aggregation, ns, local));
}

/** provider-domains: the real packages always list three, padding with empty ones. */
function domainsNode(domains: string[]): Node {
  const padded = [...domains];
  while (padded.length < 3) padded.push('');
  return node(
    NS.cortex,
    'provider-domains',
    [],
    padded.map((d) => textNode(NS.cortex, 'provider-domain', d)),
  );
}

function parentNode(parent: ProviderInfo): Node {
  const t = (local: string, value: string) => textNode(NS.cortex, local, value);
  return node(
    NS.cortex,
    'provider-parents',
    [],
    [
      node(
        NS.cortex,
        'provider-info',
        [],
        [
          domainsNode(parent.domains),
          t('provider-name', parent.name),
          t('provider-parent-id', parent.providerParentId),
          t('provider-uri', parent.uri),
          t('provider-email', parent.email),
          t('provider-collection', ''),
          t('provider-item-id-type', ''),
          t('provider-id', parent.providerId),
          t('provider-ddb-id', parent.providerDdbId),
          t('provider-logo', parent.logo),
          t('provider-longitude', parent.longitude),
          t('provider-latitude', parent.latitude),
          t('aggregator', 'false'),
        ],
      ),
    ],
  );
}

/** The element order of provider-info in the real packages (4XUD..., NF42...). */
export function providerInfoPart(provider: RecordProvider, providerItemId: string): Node {
  const e = provider.entry;
  const t = (local: string, value: string) => textNode(NS.cortex, local, value);
  const sector = recordSector(provider);
  const domains = e?.domains.length ? e.domains : sector ? [domainOfSector(sector)] : [];
  const children: Node[] = [
    domainsNode(domains),
    t('provider-name', e?.name || provider.name),
    t('provider-parent-id', e?.providerParentId ?? ''),
    t('provider-uri', e?.uri || provider.uri),
    t('provider-email', e?.email ?? ''),
    t('provider-collection', ''),
    t('provider-item-id', providerItemId),
    t('provider-item-id-type', ''),
    t('provider-id', e?.providerId ?? ''),
    t('provider-ddb-id', e?.providerDdbId ?? ''),
    t('provider-logo', e?.logo ?? ''),
    t('provider-longitude', e?.longitude ?? ''),
    t('provider-latitude', e?.latitude ?? ''),
    t('provider-state', e?.state ?? ''),
  ];
  if (provider.parent) children.push(parentNode(provider.parent));
  return node(NS.cortex, 'provider-info', [], children);
}
