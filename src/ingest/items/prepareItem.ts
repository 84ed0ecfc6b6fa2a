/**
 * Turns one package (its canonical XML and the JSON form derived from it)
 * into the row the store keeps: id, hierarchy fields, rendered bodies.
 *
 * Hierarchy fields come from the ProvidedCHO of the EDM (docs/decisions.md
 * "Hierarchy"): dcterms:isPartOf (parent), ddb:hierarchyType,
 * ddb:hierarchyPosition, ddb:aggregationEntity, dc:title (label).
 */
import { packageEtag } from '../../formats/packageEtag.js';
import { RecordError } from '../../formats/recordError.js';
import { ddbItemUri, isValidItemId } from '../../domain/itemIds.js';
import type { PreparedItem } from '../../store/Store.js';
import type { ProviderRecord } from '../../domain/institution.js';
import { sectorCodeOf } from '../edm/providers.js';
import { canonicalPersonId } from '../../domain/person.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const asArray = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

/** The text of a literal: a string, or the `$` of an element with attributes. */
function literal(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (isObject(v) && typeof v.$ === 'string') return v.$;
  return undefined;
}
function firstLiteral(v: unknown): string | undefined {
  for (const x of asArray(v)) {
    const s = literal(x)?.trim();
    if (s) return s;
  }
  return undefined;
}
function firstResource(v: unknown): string | undefined {
  for (const x of asArray(v)) {
    if (isObject(x) && typeof x['@resource'] === 'string' && x['@resource'].trim()) return x['@resource'].trim();
    if (typeof x === 'string' && x.trim()) return x.trim();
  }
  return undefined;
}

/** The item id a package declares, checked. */
export function packageItemId(pkg: Json): string {
  const props = pkg.properties;
  const id = isObject(props) ? literal(props['item-id'])?.trim() : undefined;
  if (!id) throw new RecordError('no item id: properties/item-id is missing or empty');
  if (!isValidItemId(id)) {
    throw new RecordError(`item id '${id.slice(0, 80)}' is not valid: use 1 to 200 letters, digits, '-', '_', '.', ':'`);
  }
  return id;
}

/** The ProvidedCHO of the package: the one describing this item when there are several. */
function providedCho(pkg: Json, id: string): Json | undefined {
  const edm = pkg.edm;
  const rdf = isObject(edm) ? edm.RDF : undefined;
  const chos = asArray(isObject(rdf) ? rdf.ProvidedCHO : undefined).filter(isObject);
  return chos.find((c) => c['@about'] === ddbItemUri(id)) ?? chos[0];
}

/** Indexing facets whose values are authority URIs of persons the item refers to. */
const REF_FACETS = new Set(['affiliate_fct_normdata', 'keywords_fct_normdata']);
/** ProvidedCHO properties that point at persons. */
const REF_PROPERTIES = ['creator', 'contributor', 'subject'];

/**
 * The authority URIs an item refers to (docs/decisions.md "count"): its
 * affiliate/keywords normdata facets, the creator/contributor/subject
 * references of its ProvidedCHO and the edm:Agent URIs of its EDM.
 * GND URIs are canonicalised so http and https forms count as one.
 */
export function itemRefs(pkg: Json, cho: Json | undefined): string[] {
  const found = new Set<string>();
  const add = (v: unknown) => {
    const uri = typeof v === 'string' ? canonicalPersonId(v) : null;
    if (uri) found.add(uri);
  };
  const profile = pkg['indexing-profile'];
  for (const facet of asArray(isObject(profile) ? profile.facet : undefined)) {
    // Older packages name a facet in an attribute (@name), newer ones in a child (name).
    if (isObject(facet) && REF_FACETS.has(String(literal(facet['@name']) ?? literal(facet.name))))
      for (const v of asArray(facet.value)) add(literal(v));
  }
  for (const p of REF_PROPERTIES) for (const v of asArray(cho?.[p])) if (isObject(v)) add(v['@resource']);
  const edm = pkg.edm;
  const rdf = isObject(edm) ? edm.RDF : undefined;
  for (const agent of asArray(isObject(rdf) ? rdf.Agent : undefined)) if (isObject(agent)) add(agent['@about']);
  return [...found];
}

/** One provider-info object as a ProviderRecord; undefined when it names no institution. */
function providerRecord(info: Json): ProviderRecord | undefined {
  const text = (key: string) => literal(info[key])?.trim() ?? '';
  const ddbId = text('provider-ddb-id');
  const providerId = text('provider-id');
  const name = text('provider-name');
  const key = ddbId || (providerId ? `provider-id:${providerId}` : name ? `name:${name}` : '');
  if (key === '') return undefined;
  const domains = isObject(info['provider-domains']) ? asArray(info['provider-domains']['provider-domain']) : [];
  const sectors = [...new Set(domains.map((d) => sectorCodeOf(literal(d) ?? '')).filter((c): c is string => c !== undefined))];
  return {
    key,
    ddbId,
    providerId,
    name,
    sectors,
    parentId: text('provider-parent-id'),
    uri: text('provider-uri'),
    latitude: text('provider-latitude'),
    longitude: text('provider-longitude'),
    state: text('provider-state'),
    logo: text('provider-logo'),
  };
}

/**
 * The institutions of a package (docs/api.md "Institutions"): its provider-info first,
 * then each provider-info under provider-parents, in document order, depth first.
 */
export function packageProviders(pkg: Json): ProviderRecord[] {
  const found: ProviderRecord[] = [];
  const visit = (info: unknown, depth: number) => {
    if (!isObject(info) || depth > 16) return;
    const record = providerRecord(info);
    if (record && !found.some((f) => f.key === record.key)) found.push(record);
    const parents = info['provider-parents'];
    for (const parent of asArray(isObject(parents) ? parents['provider-info'] : undefined)) visit(parent, depth + 1);
  };
  visit(pkg['provider-info'], 0);
  // The data provider first: a package whose own provider-info names no institution has none.
  return isObject(pkg['provider-info']) && providerRecord(pkg['provider-info']) ? found : [];
}

export function prepareItem(pkg: Json, xml: string, json: string): PreparedItem {
  const id = packageItemId(pkg);
  const cho = providedCho(pkg, id);
  const choUri = typeof cho?.['@about'] === 'string' ? cho['@about'].trim() : null;
  const label = firstLiteral(cho?.title) ?? (isObject(pkg.preview) ? firstLiteral(pkg.preview.title) : undefined) ?? '';
  const aggregation = firstLiteral(cho?.aggregationEntity);
  return {
    id,
    choUri: choUri || ddbItemUri(id),
    parentRef: firstResource(cho?.isPartOf) ?? null,
    label,
    hierarchyType: firstLiteral(cho?.hierarchyType) ?? null,
    position: firstLiteral(cho?.hierarchyPosition) ?? null,
    previousRef: firstResource(cho?.isNextInSequence) ?? null,
    aggregationEntity: aggregation === 'true',
    xml,
    json,
    etag: packageEtag(xml),
    refs: itemRefs(pkg, cho),
    providers: packageProviders(pkg),
  };
}
