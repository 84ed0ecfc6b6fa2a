// groupDescriptions: which descriptions inside one rdf:RDF form which record.
//
// An EDM record is one edm:ProvidedCHO and what describes it (EDM Definition: ore:Proxy,
// ore:Aggregation, edm:EuropeanaAggregation, edm:WebResource and the contextual classes).
// One rdf:RDF may hold one record (every file in fixtures/items/edm/) or several (issue #4:
// "many in one rdf:RDF").
//
// - One edm:ProvidedCHO: every description in the rdf:RDF belongs to it, referenced or
//   not. The real single-record files need this: in hope-combat/ the ore:Proxy has no
//   ore:proxyFor and the edm:EuropeanaAggregation names the aggregation, not the CHO, in
//   edm:aggregatedCHO; misc/europeana-valid-record.xml has a WebResource nobody points at.
// - Several: an ore:Proxy belongs to the CHO named by its ore:proxyFor, an ore:Aggregation
//   and an edm:EuropeanaAggregation to the CHO named by edm:aggregatedCHO. When that names
//   another proxy or aggregation instead of a CHO (the HOPE form above), they follow that
//   one's CHO; failing both, a proxy or aggregation whose own rdf:about is a CHO's URI
//   belongs to that CHO (HOPE again). What is left belongs to no CHO: `unplaced`, which
//   the caller reports as a record without an edm:ProvidedCHO.
//   Web resources and contextual entities (edm:Agent, edm:Place, skos:Concept,
//   edm:TimeSpan, ...) go with every record whose descriptions reference them by
//   rdf:resource, directly or through another entity (an Agent's isPartOf Agent, a
//   WebResource's Concept). Those no record references are dropped silently: in a
//   multi-record rdf:RDF nothing says which record they were meant for, and a record must
//   not carry entities it does not use.
// When two CHOs share one rdf:about, references to that URI resolve to the first one; the
// second is a group of its own that the caller reports as a duplicate.

import { NS } from '../../formats/namespaces.js';
import type { XmlElement } from '../../formats/xmlTree.js';
import { childElement, rdfAttribute, resourcesIn, type DescriptionKind } from './edmVocabulary.js';

export interface Groupable {
  kind: DescriptionKind;
  about: string | null;
  /** null for a description dropped while reading (too big): it references nothing. */
  element: XmlElement | null;
}

export interface DescriptionGroup<D extends Groupable> {
  cho: D;
  /** The CHO and every description of its record, in document order. */
  members: D[];
}

export interface Grouping<D extends Groupable> {
  groups: Array<DescriptionGroup<D>>;
  /** Proxies and aggregations that belong to no CHO of this rdf:RDF, in document order. */
  unplaced: D[];
}

const isCore = (kind: DescriptionKind): boolean => kind === 'proxy' || kind === 'aggregation' || kind === 'europeanaAggregation';

/** The URI a proxy or aggregation says it is about: ore:proxyFor or edm:aggregatedCHO. */
export function coreTarget(description: Groupable): string | null {
  if (description.element === null) return null;
  const link = description.kind === 'proxy'
    ? childElement(description.element, NS.ore, 'proxyFor')
    : childElement(description.element, NS.edm, 'aggregatedCHO');
  return link === undefined ? null : rdfAttribute(link, 'resource');
}

export function groupDescriptions<D extends Groupable>(descriptions: readonly D[]): Grouping<D> {
  const chos = descriptions.filter((d) => d.kind === 'cho');
  if (chos.length === 0) return { groups: [], unplaced: descriptions.filter((d) => isCore(d.kind)) };
  if (chos.length === 1) return { groups: [{ cho: chos[0]!, members: [...descriptions] }], unplaced: [] };

  const choByUri = new Map<string, D>();
  for (const cho of chos) if (cho.about !== null && !choByUri.has(cho.about)) choByUri.set(cho.about, cho);

  // Proxies and aggregations: by their link to a CHO, then through another proxy or
  // aggregation, then by their own rdf:about.
  const cores = descriptions.filter((d) => isCore(d.kind));
  const owner = new Map<D, D>();
  for (const core of cores) {
    const target = coreTarget(core);
    const cho = target === null ? undefined : choByUri.get(target);
    if (cho !== undefined) owner.set(core, cho);
  }
  const ownerByCoreUri = new Map<string, D>();
  for (const [core, cho] of owner) if (core.about !== null && !ownerByCoreUri.has(core.about)) ownerByCoreUri.set(core.about, cho);
  for (const core of cores) {
    if (owner.has(core)) continue;
    const target = coreTarget(core);
    const cho = (target === null ? undefined : ownerByCoreUri.get(target)) ?? (core.about === null ? undefined : choByUri.get(core.about));
    if (cho !== undefined) owner.set(core, cho);
  }

  const contextByUri = new Map<string, D[]>();
  for (const d of descriptions) {
    if (d.kind !== 'context' || d.about === null) continue;
    const list = contextByUri.get(d.about);
    if (list === undefined) contextByUri.set(d.about, [d]);
    else list.push(d);
  }

  const order = new Map(descriptions.map((d, i) => [d, i]));
  const groups = chos.map((cho) => {
    const members = new Set<D>([cho]);
    for (const core of cores) if (owner.get(core) === cho) members.add(core);
    // Follow rdf:resource links to web resources and contextual entities, transitively.
    const queue = [...members];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      if (next.element === null) continue;
      for (const uri of resourcesIn(next.element)) {
        for (const entity of contextByUri.get(uri) ?? []) {
          if (members.has(entity)) continue;
          members.add(entity);
          queue.push(entity);
        }
      }
    }
    return { cho, members: [...members].sort((a, b) => order.get(a)! - order.get(b)!) };
  });
  return { groups, unplaced: cores.filter((core) => !owner.has(core)) };
}
