/**
 * The persons and organisations an item is affiliated with, for the
 * `affiliate_fct*` facets (spec 2.4), with the two roles the DDB uses:
 * `involved` (made or took part in making the object) and `subject` (the
 * object is about them).
 *
 * Worked out on the real package 4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22: its
 * affiliates are the participants (crm:P11_had_participant) of the events
 * the CHO met (edm:hasMet -> edm:Event), in that order, role `involved`,
 * then the edm:Agents the CHO has as dcterms:subject, role `subject`; the
 * provider's Agents are not affiliates. Europeana records state creators
 * and contributors directly (dc:creator, dc:contributor): role `involved`,
 * before the event participants. A literal creator counts by its name only.
 *
 * Facet values: the name (the Agent's label) and, for an Agent identified by
 * an http(s) URI, that URI as normdata; the role facets repeat them and add
 * `<value>_1_affiliate_fct_<role>` (the DDB's role syntax: value, level 1,
 * facet and role name).
 */
import { NS } from '../../formats/namespaces.js';
import { isHttpUri, literalOf, props, type RdfGraph, resourceOf, resources } from './rdfGraph.js';

export type AffiliateRole = 'involved' | 'subject';

interface Affiliate {
  name: string | undefined;
  uri: string | undefined;
  roles: AffiliateRole[];
}

export interface AffiliateFacets {
  affiliate_fct: string[];
  affiliate_fct_role: string[];
  affiliate_fct_normdata: string[];
  affiliate_fct_role_normdata: string[];
}

function collect(graph: RdfGraph): Affiliate[] {
  const found = new Map<string, Affiliate>();
  const add = (name: string | undefined, uri: string | undefined, role: AffiliateRole): void => {
    const key = uri ?? `literal:${name}`;
    const known = found.get(key);
    if (known) {
      if (!known.roles.includes(role)) known.roles.push(role);
      return;
    }
    found.set(key, { name, uri, roles: [role] });
  };
  /** A reference counts when it is to an Agent of the record, or to nothing the record describes. */
  const addReference = (uri: string, role: AffiliateRole, onlyAgents: boolean): void => {
    const agent = graph.entity(uri, NS.edm, 'Agent');
    if (agent === undefined && (onlyAgents || graph.entity(uri) !== undefined)) return;
    add(graph.labelOf(agent), uri, role);
  };

  for (const local of ['creator', 'contributor']) {
    for (const el of props(graph.cho, NS.dc, local)) {
      const uri = resourceOf(el);
      if (uri !== undefined) addReference(uri, 'involved', false);
      else {
        const name = literalOf(el);
        if (name !== undefined) add(name, undefined, 'involved');
      }
    }
  }
  for (const met of resources(graph.cho, NS.edm, 'hasMet')) {
    const event = graph.entity(met, NS.edm, 'Event');
    if (event === undefined) {
      if (graph.entity(met, NS.edm, 'Agent')) addReference(met, 'involved', true);
      continue;
    }
    for (const participant of resources(event, NS.crm, 'P11_had_participant')) addReference(participant, 'involved', false);
  }
  for (const [ns, local] of [
    [NS.dc, 'subject'],
    [NS.dcterms, 'subject'],
  ] as const) {
    for (const uri of resources(graph.cho, ns, local)) addReference(uri, 'subject', true);
  }
  return [...found.values()];
}

export function affiliateFacets(graph: RdfGraph): AffiliateFacets {
  const affiliates = collect(graph);
  const named = affiliates.filter((a): a is Affiliate & { name: string } => a.name !== undefined);
  const withUri = affiliates.filter((a): a is Affiliate & { uri: string } => a.uri !== undefined && isHttpUri(a.uri));
  const roleValues = (list: Array<Affiliate & { value: string }>): string[] =>
    list.flatMap((a) => a.roles.map((role) => `${a.value}_1_affiliate_fct_${role}`));
  const names = named.map((a) => ({ ...a, value: a.name }));
  const uris = withUri.map((a) => ({ ...a, value: a.uri }));
  return {
    affiliate_fct: names.map((a) => a.value),
    affiliate_fct_role: [...names.map((a) => a.value), ...roleValues(names)],
    affiliate_fct_normdata: uris.map((a) => a.value),
    affiliate_fct_role_normdata: [...uris.map((a) => a.value), ...roleValues(uris)],
  };
}
