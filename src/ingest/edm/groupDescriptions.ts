// groupDescriptions: which descriptions inside one rdf:RDF form which record.
//
// An EDM record is one edm:ProvidedCHO and what describes it (EDM Definition: ore:Proxy,
// ore:Aggregation, edm:EuropeanaAggregation, edm:WebResource and the contextual classes).
// One rdf:RDF may hold one record (every file in fixtures/items/edm/) or several (dumps
// and OAI-PMH responses hold many in one rdf:RDF).
//
// Proxies and aggregations: an ore:Proxy belongs to the CHO its ore:proxyFor names, an
// ore:Aggregation or edm:EuropeanaAggregation to the CHO its edm:aggregatedCHO names.
// Failing that, one whose own rdf:about is a CHO's URI belongs to that CHO, and one that
// names another proxy or aggregation follows that one's CHO. The real files need both: in
// hope-combat/ the ore:Proxy has no ore:proxyFor (its rdf:about is the CHO's URI) and the
// edm:EuropeanaAggregation's edm:aggregatedCHO names the ore:Aggregation. When the rdf:RDF
// has one CHO, a proxy or aggregation that names nothing is about it. What is left names
// an object that is not there: `unplaced`, which the caller reports as a record without
// an edm:ProvidedCHO (and which is never folded into another record).
//
// - One CHO and nothing unplaced: every description in the rdf:RDF belongs to it,
//   referenced or not (misc/europeana-valid-record.xml and MIMO records have web
//   resources nobody points at; alone in their file, they are clearly that record's).
// - Otherwise the record is its CHO, its proxies and aggregations, and what they reference:
//   web resources and contextual entities (edm:Agent, edm:Place, skos:Concept,
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

/** Proxies and aggregations about one object that is not in the rdf:RDF. */
export interface Unplaced<D extends Groupable> {
  /** The URI they name ("" when they name none). */
  uri: string;
  members: D[];
}

export interface Grouping<D extends Groupable> {
  groups: Array<DescriptionGroup<D>>;
  /** In document order of their first member. */
  unplaced: Array<Unplaced<D>>;
}

const isCore = (kind: DescriptionKind): boolean => kind === 'proxy' || kind === 'aggregation' || kind === 'europeanaAggregation';

/** The URI a proxy or aggregation says it is about: ore:proxyFor or edm:aggregatedCHO. */
export function coreTarget(description: Groupable): string | null {
  if (description.element === null) return null;
  const link =
    description.kind === 'proxy'
      ? childElement(description.element, NS.ore, 'proxyFor')
      : childElement(description.element, NS.edm, 'aggregatedCHO');
  return link === undefined ? null : rdfAttribute(link, 'resource');
}

export function groupDescriptions<D extends Groupable>(descriptions: readonly D[]): Grouping<D> {
  const chos = descriptions.filter((d) => d.kind === 'cho');
  const cores = descriptions.filter((d) => isCore(d.kind));
  const targets = new Map(cores.map((core) => [core, coreTarget(core)]));
  const owner = new Map<D, D>();
  const unowned = (): D[] => cores.filter((core) => !owner.has(core));
  /**
   * Unowned proxies and aggregations, clustered when one names another or both name the
   * same URI; each cluster is one object that is missing. Its URI is what an ore:Proxy or
   * ore:Aggregation in it names (those name the CHO in EDM), else what any member names.
   */
  const clusters = (): Array<Unplaced<D>> => {
    const left = unowned();
    const uris = (core: D): string[] => [core.about, targets.get(core)].filter((u): u is string => u != null);
    const result: Array<Unplaced<D>> = [];
    for (const core of left) {
      const joined = result.filter((c) => c.members.some((m) => uris(m).some((u) => uris(core).includes(u))));
      const members = [...joined.flatMap((c) => c.members), core];
      for (const c of joined) result.splice(result.indexOf(c), 1);
      result.push({ uri: '', members: members.sort((a, b) => left.indexOf(a) - left.indexOf(b)) });
    }
    for (const cluster of result) {
      const named = cluster.members.map((m) => ({ kind: m.kind, target: targets.get(m) })).filter((m) => m.target != null);
      cluster.uri = (named.find((m) => m.kind !== 'europeanaAggregation') ?? named[0])?.target ?? cluster.members[0]!.about ?? '';
    }
    return result.sort((a, b) => left.indexOf(a.members[0]!) - left.indexOf(b.members[0]!));
  };
  if (chos.length === 0) return { groups: [], unplaced: clusters() };
  // A lone CHO without rdf:about: its proxies cannot name it, so they are taken to be
  // about it; the caller rejects the record for the missing rdf:about, once.
  if (chos.length === 1 && chos[0]!.about === null) return { groups: [{ cho: chos[0]!, members: [...descriptions] }], unplaced: [] };

  const choByUri = new Map<string, D>();
  for (const cho of chos) if (cho.about !== null && !choByUri.has(cho.about)) choByUri.set(cho.about, cho);
  // By the link to a CHO or the own rdf:about, then through other proxies and
  // aggregations (repeated, since such links can chain).
  for (const core of cores) {
    const target = targets.get(core);
    const cho = (target == null ? undefined : choByUri.get(target)) ?? (core.about === null ? undefined : choByUri.get(core.about));
    if (cho !== undefined) owner.set(core, cho);
  }
  for (let changed = true; changed;) {
    changed = false;
    const ownerByCoreUri = new Map<string, D>();
    for (const [core, cho] of owner) if (core.about !== null && !ownerByCoreUri.has(core.about)) ownerByCoreUri.set(core.about, cho);
    for (const core of unowned()) {
      const target = targets.get(core);
      const cho = target == null ? undefined : ownerByCoreUri.get(target);
      if (cho !== undefined) {
        owner.set(core, cho);
        changed = true;
      }
    }
  }
  // With one CHO, proxies and aggregations that name nothing are about it, unless they
  // go with others that name a missing object (HOPE's proxy of a CHO that is not there).
  if (chos.length === 1) {
    for (const cluster of clusters()) {
      if (cluster.members.every((m) => targets.get(m) == null)) for (const m of cluster.members) owner.set(m, chos[0]!);
    }
  }
  const unplaced = clusters();
  if (chos.length === 1 && unplaced.length === 0) return { groups: [{ cho: chos[0]!, members: [...descriptions] }], unplaced };

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
  return { groups, unplaced };
}
