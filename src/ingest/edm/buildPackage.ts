/**
 * Builds the complete DDB item package (cortex XML, spec 2.4; docs/decisions.md
 * "Item package") from one EDM record in the DDB form (docs/edm-mapping.md).
 *
 * Parts, in the cortex order: properties, edm (the record's rdf:RDF as
 * given), indexing-profile, preview, view, metadata-record (the source record
 * as text), provider-info, binaries. The optional aggregator-info part is not
 * written: the providers file describes data providers only. How each value
 * is derived: docs/edm-mapping.md.
 */
import { NS } from '../../formats/namespaces.js';
import { binariesOf, binariesPart } from './binaries.js';
import { node, textNode, writeCortex } from './cortexWriter.js';
import { deriveFacets, indexingProfilePart, mediaTypesOf, timeOf } from './indexingProfile.js';
import { itemIdOf } from './itemId.js';
import { mediaWord } from '../../domain/mediaTypes.js';
import { previewPart, subtitleOf, titleOf } from './preview.js';
import { CORTEX_TYPE, defaultIngestId, ingestDateText, propertiesPart } from './properties.js';
import { dataProviderOf, providerInfoPart } from './providerInfo.js';
import type { ProviderDirectory } from './providers.js';
import { RdfGraph } from './rdfGraph.js';
import type { EdmRecord } from './types.js';
import { identifierOf, licenseUriOf, viewPart } from './view.js';

export interface BuildOptions {
  /** When the package is built: properties/ingest-date and the last_update facet. */
  ingestDate: Date;
  /** properties/ingest-id; default: the ingest day as YYYYMMDD. */
  ingestId?: string;
  /** The operator's providers file, completing provider-info and the institution. */
  providers?: ProviderDirectory;
}

/** The record's source text for metadata-record, without its XML declaration, which means nothing inside another document. */
function sourceText(sourceXml: string): string {
  return sourceXml.replace(/^\uFEFF/, '').replace(/^\s*<\?xml[^?]*\?>\s*/, '');
}

/**
 * The package of one record. Throws RecordError (src/formats/recordError.ts) when
 * the record cannot make a package (no edm:ProvidedCHO, a root other than rdf:RDF).
 */
export function buildPackage(record: EdmRecord, options: BuildOptions): { itemId: string; xml: string } {
  const graph = new RdfGraph(record.rdf, record.choUri);
  const itemId = itemIdOf(graph);
  const date = ingestDateText(options.ingestDate);
  const title = titleOf(graph);
  const subtitle = subtitleOf(graph);
  const media = mediaWord(mediaTypesOf(graph)[0] ?? '');
  const binaries = binariesOf(graph, title);
  const primary = binaries[0];
  const provider = dataProviderOf(graph, options.providers);
  const facets = deriveFacets(graph, provider, options.providers, date);

  const root = node(
    NS.cortex,
    'cortex',
    [],
    [
      propertiesPart(itemId, options.ingestId ?? defaultIngestId(options.ingestDate), options.ingestDate),
      node(NS.cortex, 'edm', [], [{ copy: record.rdf }]),
      indexingProfilePart(itemId, facets),
      previewPart(itemId, CORTEX_TYPE, media, title, subtitle, primary),
      viewPart(graph, {
        title,
        subtitle,
        category: CORTEX_TYPE,
        media,
        primary,
        provider,
        facts: { title, years: timeOf(graph).range, license: licenseUriOf(graph, primary), hasBinaries: binaries.length > 0 },
      }),
      textNode(NS.cortex, 'metadata-record', sourceText(record.sourceXml)),
      providerInfoPart(provider, identifierOf(graph)),
      binariesPart(itemId, binaries),
    ],
  );
  return { itemId, xml: writeCortex(root) };
}
