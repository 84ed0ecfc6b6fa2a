/**
 * The `view` part: `view.item` of spec 2.4, in the element order of the real
 * packages (identifier, label, title, subtitle, rights, metadata-rights,
 * origin, category, media, thumbnail, latitude, longitude, viewers, license,
 * institution, fields). Everything below `view` is in the item namespace.
 */
import { coordinateOf } from '../../formats/itemFields.js';
import { NS } from '../../formats/namespaces.js';
import type { XmlElement } from '../../formats/xmlTree.js';
import type { Binary } from './binaries.js';
import { nilNode, node, textNode, type Node } from './cortexWriter.js';
import { licenseOf } from './licenses.js';
import type { RecordProvider } from './providerInfo.js';
import { aboutOf, literalOf, literals, props, type RdfGraph, resourceOf, resources } from './rdfGraph.js';
import { fieldsNodes, type IndexFacts } from './viewFields.js';

/** view.item/identifier and provider-item-id: the CHO's first dc:identifier, else its URI. */
export function identifierOf(graph: RdfGraph): string {
  return literals(graph.cho, NS.dc, 'identifier')[0] ?? graph.choUri;
}

/**
 * The license URI: edm:rights of the primary web resource, else of the Aggregation
 * (NF42...), else the rights of any web resource (4XUD... has only a dcterms:rights on
 * its web resource: CC BY-NC-SA 4.0, which is its license).
 */
export function licenseUriOf(graph: RdfGraph, primary: Binary | undefined): string | undefined {
  const webResources = graph.classes(NS.edm, 'WebResource');
  return (
    resources(primary?.resource, NS.edm, 'rights')[0] ??
    resources(graph.aggregation, NS.edm, 'rights')[0] ??
    webResources.flatMap((wr) => [...resources(wr, NS.edm, 'rights'), ...resources(wr, NS.dcterms, 'rights')])[0]
  );
}

/**
 * Coordinates of the object's place: the first edm:Place with wgs84 lat and long that
 * is not merely where the object is kept (edm:currentLocation): the institution's
 * position belongs to provider-info. NF42... has only its library's place, with
 * coordinates, and empty latitude/longitude in view.
 */
function coordinatesOf(graph: RdfGraph): { lat: string; long: string } {
  const kept = new Set(resources(graph.cho, NS.edm, 'currentLocation'));
  for (const place of graph.classes(NS.edm, 'Place')) {
    const about = aboutOf(place);
    if (about !== undefined && kept.has(about)) continue;
    // Decimal degrees in range, or the place has none (docs/search.md "Geography")
    const lat = coordinateOf(wgs84(place, 'lat'), 90);
    const long = coordinateOf(wgs84(place, 'long'), 180);
    if (lat !== undefined && long !== undefined) return { lat, long };
  }
  return { lat: '', long: '' };
}

/**
 * A wgs84_pos literal of a place. Records write the namespace without its closing `#` too
 * (Europeana's own sample record, europeana-valid-record.xml, declares it so).
 */
function wgs84(place: XmlElement, local: 'lat' | 'long'): string | undefined {
  return literals(place, NS.wgs84, local)[0] ?? literals(place, NS.wgs84.replace(/#$/, ''), local)[0];
}

/** dc:rights text of the CHO, else of the primary web resource ("© Museum ..." in MIMO). */
function rightsTextOf(graph: RdfGraph, primary: Binary | undefined): string {
  const own = literals(graph.cho, NS.dc, 'rights');
  return (own.length > 0 ? own : literals(primary?.resource, NS.dc, 'rights')).join('; ');
}

/** metadata-rights: the Aggregation's dcterms:rights (the metadata license in both real packages). */
function metadataRightsOf(aggregation: XmlElement | undefined): string {
  const el = props(aggregation, NS.dcterms, 'rights')[0];
  return el === undefined ? '' : (resourceOf(el) ?? literalOf(el) ?? '');
}

export interface ViewInput {
  title: string;
  subtitle: string;
  category: string;
  media: string;
  primary: Binary | undefined;
  provider: RecordProvider;
  facts: IndexFacts;
}

export function viewPart(graph: RdfGraph, input: ViewInput): Node {
  const t = (local: string, value: string) => textNode(NS.item, local, value);
  const { lat, long } = coordinatesOf(graph);
  const entry = input.provider.entry;
  const children: Node[] = [
    t('identifier', identifierOf(graph)),
    t('label', input.title),
    t('title', input.title),
    t('subtitle', input.subtitle),
    t('rights', rightsTextOf(graph, input.primary)),
    t('metadata-rights', metadataRightsOf(graph.aggregation)),
    t('origin', resources(graph.aggregation, NS.edm, 'isShownAt')[0] ?? ''),
    t('category', input.category),
    t('media', input.media),
    t('thumbnail', ''),
    t('latitude', lat),
    t('longitude', long),
    nilNode(NS.item, 'viewers'), // no viewer is configured for EDM records; JSON null as in goethe.json
  ];
  if (input.facts.license !== undefined) {
    const license = licenseOf(input.facts.license);
    children.push(
      textNode(NS.item, 'license', license.label, [
        { ns: NS.rdf, name: 'resource', value: license.resource },
        { name: 'img', value: license.img },
        { name: 'url', value: license.url },
      ]),
    );
  }
  children.push(
    node(
      NS.item,
      'institution',
      [],
      [
        t('url', entry?.uri || input.provider.uri),
        t('id', entry?.providerDdbId ?? ''),
        t('name', entry?.name || input.provider.name),
        t('logo', entry?.logo ?? ''),
      ],
    ),
  );
  children.push(...fieldsNodes(graph, input.facts));
  return node(NS.cortex, 'view', [], [node(NS.item, 'item', [], children)]);
}
