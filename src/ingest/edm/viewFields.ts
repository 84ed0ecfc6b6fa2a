/**
 * The `fields` of `view.item` (spec 2.4): a `display` group, what a portal
 * shows about the object, and an `index` group of values for search.
 *
 * display: one field per value of the CHO's descriptive properties, in the
 * order of the table below, with German names as in the real packages
 * ("Standort", "Material/Technik", ...). The DDB's field ids (flex_mus_neu_050,
 * flex_bibl_003, ...) come from its per-sector mapping of the provider's
 * original record, which we do not have; our ids name the EDM property
 * (`dc_description`). A literal is the value; a reference is the value
 * `{@resource, $}` with the label of what it references (as `(wer)` in
 * 4XUD...), or the URI when the record does not describe it.
 *
 * index: the ids of the real packages: title and description (with the DC
 * property as @resource), begin_time / end_time (day numbers, see
 * timeVocabulary.ts), license, grid_preview and digitalisat.
 */
import { NS } from '../../formats/namespaces.js';
import { node, textNode, type Attr, type Node } from './cortexWriter.js';
import { literals, props, type RdfGraph } from './rdfGraph.js';
import { dayNumber, type YearRange } from './timeVocabulary.js';

const DISPLAY_FIELDS: ReadonlyArray<[ns: string, local: string, id: string, name: string]> = [
  [NS.dcterms, 'alternative', 'dcterms_alternative', 'Weitere Titel'],
  [NS.dc, 'type', 'dc_type', 'Objekttyp'],
  [NS.edm, 'hasType', 'edm_hasType', 'Dokumenttyp'],
  [NS.dc, 'description', 'dc_description', 'Beschreibung'],
  [NS.dc, 'creator', 'dc_creator', 'Urheber'],
  [NS.dc, 'contributor', 'dc_contributor', 'Beteiligte'],
  [NS.dc, 'publisher', 'dc_publisher', 'Verlag'],
  [NS.dc, 'date', 'dc_date', 'Datierung'],
  [NS.dcterms, 'created', 'dcterms_created', 'Entstehungszeit'],
  [NS.dcterms, 'issued', 'dcterms_issued', 'Erscheinungsjahr'],
  [NS.dcterms, 'temporal', 'dcterms_temporal', 'Zeitraum'],
  [NS.dc, 'coverage', 'dc_coverage', 'Räumlicher oder zeitlicher Bezug'],
  [NS.dcterms, 'spatial', 'dcterms_spatial', 'Ort'],
  [NS.dc, 'subject', 'dc_subject', 'Thema'],
  [NS.dcterms, 'subject', 'dcterms_subject', 'Thema'],
  [NS.dc, 'language', 'dc_language', 'Sprache'],
  [NS.dcterms, 'medium', 'dcterms_medium', 'Material/Technik'],
  [NS.dc, 'format', 'dc_format', 'Format'],
  [NS.dcterms, 'extent', 'dcterms_extent', 'Umfang'],
  [NS.dc, 'identifier', 'dc_identifier', 'Identifikator'],
  [NS.dcterms, 'bibliographicCitation', 'dcterms_bibliographicCitation', 'Bibliographische Angabe'],
  [NS.dcterms, 'isPartOf', 'dcterms_isPartOf', 'Teil von'],
  [NS.dc, 'relation', 'dc_relation', 'Beziehung'],
  [NS.dc, 'source', 'dc_source', 'Quelle'],
  [NS.dcterms, 'provenance', 'dcterms_provenance', 'Provenienz'],
  [NS.edm, 'currentLocation', 'edm_currentLocation', 'Standort'],
  [NS.dc, 'rights', 'dc_rights', 'Rechte'],
];

const field = (id: string, name: string, values: Node[], attrs: Attr[] = []): Node =>
  node(NS.item, 'field', [...attrs, { name: 'id', value: id }], [textNode(NS.item, 'name', name), ...values]);

function displayFields(graph: RdfGraph): Node[] {
  const fields: Node[] = [];
  for (const [ns, local, id, name] of DISPLAY_FIELDS) {
    for (const el of props(graph.cho, ns, local)) {
      const value = graph.valueOf(el);
      if (value === undefined) continue;
      const attrs: Attr[] = value.resource === undefined ? [] : [{ ns: NS.rdf, name: 'resource', value: value.resource }];
      fields.push(field(id, name, [textNode(NS.item, 'value', value.text, attrs)]));
    }
  }
  return fields;
}

export interface IndexFacts {
  title: string;
  years: YearRange | undefined;
  license: string | undefined;
  hasBinaries: boolean;
}

function indexFields(graph: RdfGraph, facts: IndexFacts): Node[] {
  const values = (list: string[]) => list.map((v) => textNode(NS.item, 'value', v));
  const fields: Node[] = [];
  if (facts.title) fields.push(field('title', 'Title', values([facts.title]), [{ ns: NS.rdf, name: 'resource', value: `${NS.dc}title` }]));
  const descriptions = literals(graph.cho, NS.dc, 'description');
  if (descriptions.length > 0)
    fields.push(
      field('description', 'Beschreibung', values(descriptions), [{ ns: NS.rdf, name: 'resource', value: `${NS.dc}description` }]),
    );
  if (facts.years) {
    fields.push(field('begin_time', 'Anfang', values([String(dayNumber(facts.years.from, 1, 1))])));
    fields.push(field('end_time', 'Ende', values([String(dayNumber(facts.years.to, 12, 31))])));
  }
  if (facts.license) fields.push(field('license', 'Lizenz', values([facts.license])));
  fields.push(field('grid_preview', 'grid_preview', values([String(facts.hasBinaries)])));
  fields.push(field('digitalisat', 'digitalisat', values([String(facts.hasBinaries)])));
  return fields;
}

export function fieldsNodes(graph: RdfGraph, facts: IndexFacts): Node[] {
  return [
    node(NS.item, 'fields', [{ name: 'usage', value: 'display' }], displayFields(graph)),
    node(NS.item, 'fields', [{ name: 'usage', value: 'index' }], indexFields(graph, facts)),
  ];
}
