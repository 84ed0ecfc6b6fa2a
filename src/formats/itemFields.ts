/**
 * An item package read for search: (a) its fields by the names of `itemSchema`
 * (src/search/schemas/itemSchema.ts), from which src/search/schemas/itemDocument.ts makes
 * the engine's document, (b) the item's doc in a search result (docs/search.md "GET
 * /search"), and (c) its stored fields, which the store writes beside the package.
 * Here, below the store and the search, so that both compute them the same way without
 * importing each other (docs/architecture.md "Layers").
 *
 * The package already carries the DDB's own search document, and this reads only that:
 * - `indexing-profile`: the facets (`<facet name="place_fct"><value>Leipzig</value>…`);
 * - `view/item/fields[@usage="index"]`: title, description, ranking, begin_time, end_time;
 * - `preview`: title, subtitle, thumbnail, @type, @media;
 * - `view/item`: label, category, latitude, longitude, license (`license`, `license_group`:
 *   the index fields of those names where the package has them, else the licence's URI and
 *   its group; src/domain/licenseGroups.ts);
 * - `edm`: the first `Place` with coordinates that is not the object's `currentLocation`,
 *   when the view has none (as src/ingest/edm/view.ts chooses for the packages it builds);
 * - `binaries`: whether there are any (`has_media_fct`);
 * - `properties`: item-id, cortex-type.
 * The `edm` and `metadata-record` parts are not read: what they hold for search the DDB
 * (or buildPackage.ts, for EDM) has already put into the profile and the view.
 *
 * Input is the package's JSON form (cortexToJson.ts; the store keeps it beside the XML),
 * which both generations of real packages reach: attributes are `@name` in the older
 * (4XUD…, goethe.json) and plain child elements `name` in the newer (bare_id.json), a
 * value is text or `{content, resource, …}` (newer view fields), a repeated element is an
 * array and a single one is not. Robust by construction: a missing part, or a part of an
 * unexpected shape, contributes nothing, and the mapping never throws; the caller may pass
 * the id it stored the package under, used when the package names none.
 *
 * Field list and semantics: docs/search-engine.md ("Item fields").
 */
import { ITEM_FACETS, STORED_ITEM_FACETS } from '../domain/itemFacets.js';
import { canonicalLicense, isLicenseGroup, licenseGroupOf } from '../domain/licenseGroups.js';
import { cortexToJson } from './cortexToJson.js';
import { parseXml } from './xmlTree.js';

/** A stored field's value, as Solr's `fl` shows it (the engine's StoredValue). */
export type StoredValue = string | number | string[];

/**
 * One doc of `results[0].docs` of v1 `GET /search` (docs/search.md): what a result list
 * shows of an item, from its `preview` and `view`. Strings throughout, "" for what the
 * package does not have, as the package's own view writes empty latitude/longitude.
 */
export interface ItemResultDoc {
  id: string;
  /** preview/title, else view/item/title. */
  title: string;
  /** preview/subtitle, else view/item/subtitle. */
  subtitle: string;
  /** view/item/label, else the title. */
  label: string;
  /** preview/thumbnail/@href: a /binary path (older packages) or a binary ref (newer). */
  thumbnail: string;
  /** preview/@media, else view/item/media ("image", "text", …). */
  media: string;
  /** view/item/category, else properties/cortex-type ("Kultur"). */
  category: string;
  /** preview/@type, else properties/cortex-type ("Kultur"). */
  type: string;
  /**
   * view/item/latitude and longitude as written (WGS84 decimal degrees), else those of the
   * package's EDM place; "" when there is no valid pair (docs/search.md "Geography").
   */
  latitude: string;
  longitude: string;
}

/** A package's fields by the names of itemSchema, and its result doc. */
export interface ItemFields {
  id: string;
  /** Text per text field (title, subtitle, keywords, affiliate, description, place, ranking, provider). */
  text: Record<string, string[]>;
  /** Values per facet of ITEM_FACETS that the package has. */
  facets: Record<string, string[]>;
  /**
   * Day numbers of the view's index fields, and the item's point (the result doc's latitude
   * and longitude as numbers: Solr's LatLonType sub-fields, named as the real /search names
   * them); null when absent.
   */
  numbers: {
    begin_time: number | null;
    end_time: number | null;
    geocode_0_coordinate: number | null;
    geocode_1_coordinate: number | null;
  };
  result: ItemResultDoc;
}

type Obj = Record<string, unknown>;

const NO_VALUES: readonly unknown[] = [];
const FACETS: ReadonlySet<string> = new Set(ITEM_FACETS);
/** Index fields (view/item/fields[@usage="index"]/field/@id) that become text fields. */
const TEXT_FIELDS = new Set(['title', 'description', 'ranking']);
/** Index fields read as they are (the DDB's licence and licence group of the item's media). */
const OTHER_INDEX_FIELDS = new Set(['begin_time', 'end_time', 'license', 'license_group']);
/** The role suffix of affiliate_fct_role values: `<name>_<level>_affiliate_fct_<role>`. */
const ROLE_MARK = '_affiliate_fct_';
const ROLE_FACETS: Readonly<Record<string, string>> = { involved: 'affiliate_fct_involved', subject: 'affiliate_fct_subject' };

function objectOf(value: unknown): Obj | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : undefined;
}

/** A repeated element is an array, a single one is not, an absent one undefined (or null when nil). */
function listOf(value: unknown): readonly unknown[] {
  if (value === undefined || value === null) return NO_VALUES;
  return Array.isArray(value) ? value : [value];
}

/** The text of a value: a string, a number or boolean (newer JSON), `{$}` (text beside attributes), `{content}` (newer view values). */
function textOf(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
      return String(value);
    case 'object': {
      const o = objectOf(value);
      if (o === undefined) return undefined;
      const text = o['$'] ?? o['content'];
      return typeof text === 'string' ? text : undefined;
    }
    default:
      return undefined;
  }
}

/** An attribute (`@name`, older packages) or the same-named child element (`name`, newer ones). */
function attributeOf(o: Obj | undefined, name: string): string | undefined {
  if (o === undefined) return undefined;
  const attribute = o[`@${name}`];
  return typeof attribute === 'string' ? attribute : textOf(o[name]);
}

/** The non-empty texts of a repeated value, in order. */
function textsOf(value: unknown): string[] {
  const out: string[] = [];
  for (const v of listOf(value)) {
    const t = textOf(v);
    if (t !== undefined && t.trim() !== '') out.push(t);
  }
  return out;
}

function firstText(...candidates: unknown[]): string {
  for (const c of candidates) {
    const t = textOf(c);
    if (t !== undefined && t !== '') return t;
  }
  return '';
}

/** An integer day number as the view writes it ("680449"); anything else is no value. */
function dayNumberOf(texts: readonly string[] | undefined): number | null {
  const text = texts?.[0]?.trim();
  if (text === undefined || !/^-?\d{1,9}$/.test(text)) return null;
  return Number(text);
}

function addAll(target: Map<string, string[]>, name: string, values: readonly string[]): void {
  if (values.length === 0) return;
  const list = target.get(name);
  if (list === undefined) target.set(name, values.slice());
  else for (const v of values) list.push(v);
}

/** Values in first-occurrence order without repeats (keywords_fct repeats "Druckgraphik" in 4XUD…). */
function unique(values: readonly string[]): string[] {
  return values.length < 2 ? values.slice() : [...new Set(values)];
}

/** `Pecht, August Friedrich_1_affiliate_fct_involved` -> [affiliate_fct_involved, Pecht, August Friedrich]. */
function roleOf(value: string): [facet: string, name: string] | undefined {
  const mark = value.lastIndexOf(ROLE_MARK);
  if (mark < 0) return undefined;
  const facet = ROLE_FACETS[value.slice(mark + ROLE_MARK.length)];
  const level = value.lastIndexOf('_', mark - 1);
  if (facet === undefined || level <= 0) return undefined;
  for (let i = level + 1; i < mark; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  return level + 1 < mark ? [facet, value.slice(0, level)] : undefined;
}

/**
 * A `_normdata` value may hold several URIs separated by spaces (multi_uri.json: place_fct_normdata
 * "http://d-nb.info/gnd/4044283-4 https://www.geonames.org/2855745"); each is a value of its own,
 * so that a filter on one authority URI finds the item. A URI has no spaces (RFC 3986).
 */
function urisOf(value: string): string[] {
  return value.split(/\s+/).filter((uri) => uri !== '');
}

/** The profile's facets by name (only those of itemSchema), plus the affiliate roles. */
function profileFacets(profile: Obj | undefined): Map<string, string[]> {
  const facets = new Map<string, string[]>();
  if (profile === undefined) return facets;
  for (const f of listOf(profile['facet'])) {
    const facet = objectOf(f);
    const name = attributeOf(facet, 'name');
    if (facet === undefined || name === undefined || !FACETS.has(name)) continue;
    const values = name.endsWith('_normdata') ? textsOf(facet['value']).flatMap(urisOf) : textsOf(facet['value']);
    addAll(facets, name, values);
    if (name === 'affiliate_fct_role') {
      for (const v of values) {
        const role = roleOf(v);
        if (role !== undefined) addAll(facets, role[0], [role[1]]);
      }
    }
  }
  for (const [name, values] of facets) facets.set(name, unique(values));
  return facets;
}

/** view/item/fields[@usage="index"]: values by field id (the newer generation names its description field `description` under another id). */
function indexFields(item: Obj | undefined): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  if (item === undefined) return fields;
  for (const group of listOf(item['fields'])) {
    const g = objectOf(group);
    if (attributeOf(g, 'usage') !== 'index') continue;
    for (const f of listOf(g!['field'])) {
      const field = objectOf(f);
      if (field === undefined) continue;
      const id = attributeOf(field, 'id');
      const key =
        id !== undefined && (OTHER_INDEX_FIELDS.has(id) || TEXT_FIELDS.has(id))
          ? id
          : textOf(field['name']) === 'description'
            ? 'description'
            : undefined;
      if (key !== undefined) addAll(fields, key, textsOf(field['value']));
    }
  }
  return fields;
}

/** The licence facets: the view's index fields `license` / `license_group`, else the view's licence and its group. */
function licenseFacets(item: Obj | undefined, fields: Map<string, string[]>, facets: Map<string, string[]>): void {
  const uri = canonicalLicense(fields.get('license')?.[0] ?? attributeOf(objectOf(item?.['license']), 'resource') ?? '');
  if (uri === '') return;
  facets.set('license', [uri]);
  const given = fields.get('license_group')?.[0]?.trim();
  facets.set('license_group', [given !== undefined && isLicenseGroup(given) ? given : licenseGroupOf(uri)]);
}

/** A coordinate in WGS84 decimal degrees within ±limit, as written (trimmed); undefined for anything else. */
export function coordinateOf(text: string | undefined, limit: number): string | undefined {
  const t = text?.trim();
  if (t === undefined || !/^[+-]?(\d{1,3}(\.\d+)?|\.\d+)$/.test(t)) return undefined;
  return Math.abs(Number(t)) <= limit ? t : undefined;
}

/**
 * The point of the item: the view's latitude and longitude, else the first `Place` of the
 * package's EDM with both (older JSON `lat`/`long`, the newer the same names) that is not
 * where the object is kept (`ProvidedCHO/currentLocation`: the institution's position, which
 * provider-info carries). Both or neither.
 */
function pointOf(root: Obj | undefined, item: Obj | undefined): { latitude: string; longitude: string } {
  const lat = coordinateOf(firstText(item?.['latitude']), 90);
  const long = coordinateOf(firstText(item?.['longitude']), 180);
  if (lat !== undefined && long !== undefined) return { latitude: lat, longitude: long };
  const rdf = objectOf(objectOf(root?.['edm'])?.['RDF']);
  const kept = new Set<string>();
  for (const cho of listOf(rdf?.['ProvidedCHO']))
    for (const loc of listOf(objectOf(cho)?.['currentLocation'])) {
      const r = attributeOf(objectOf(loc), 'resource') ?? textOf(loc);
      if (r !== undefined) kept.add(r);
    }
  for (const p of listOf(rdf?.['Place'])) {
    const place = objectOf(p);
    const about = attributeOf(place, 'about');
    if (place === undefined || (about !== undefined && kept.has(about))) continue;
    const plat = coordinateOf(textOf(listOf(place['lat'])[0]), 90);
    const plong = coordinateOf(textOf(listOf(place['long'])[0]), 180);
    if (plat !== undefined && plong !== undefined) return { latitude: plat, longitude: plong };
  }
  return { latitude: '', longitude: '' };
}

function hasBinaries(binaries: Obj | undefined): boolean {
  return binaries !== undefined && listOf(binaries['binary']).some((b) => objectOf(b) !== undefined);
}

/**
 * The fields and the result doc of a package in JSON form (see the header).
 * `storedId`: the id the package is stored under, when the package itself names none.
 */
export function itemFields(pkg: unknown, storedId = ''): ItemFields {
  const root = objectOf(pkg);
  const properties = objectOf(root?.['properties']);
  const profile = objectOf(root?.['indexing-profile']);
  const preview = objectOf(root?.['preview']);
  const item = objectOf(objectOf(root?.['view'])?.['item']);

  const id = firstText(properties?.['item-id'], profile?.['item-id']) || storedId;
  const facets = profileFacets(profile);
  facets.set('has_media_fct', [hasBinaries(objectOf(root?.['binaries'])) ? 'true' : 'false']);
  const fields = indexFields(item);
  licenseFacets(item, fields, facets);

  const title = firstText(preview?.['title'], item?.['title']);
  const subtitle = firstText(preview?.['subtitle'], item?.['subtitle']);
  const titles = fields.get('title') ?? (title === '' ? [] : [title]);
  const cortexType = firstText(properties?.['cortex-type']);

  const point = pointOf(root, item);
  if (point.latitude !== '') facets.set('geocode', [`${point.latitude},${point.longitude}`]);
  const result: ItemResultDoc = {
    id,
    title,
    subtitle,
    label: firstText(item?.['label']) || title,
    thumbnail: attributeOf(objectOf(preview?.['thumbnail']), 'href') ?? '',
    media: attributeOf(preview, 'media') || firstText(item?.['media']),
    category: firstText(item?.['category']) || cortexType,
    type: attributeOf(preview, 'type') || cortexType,
    ...point,
  };
  return {
    id,
    text: {
      title: titles,
      subtitle: subtitle === '' ? [] : [subtitle],
      keywords: facets.get('keywords_fct') ?? [],
      affiliate: facets.get('affiliate_fct') ?? [],
      description: fields.get('description') ?? [],
      place: facets.get('place_fct') ?? [],
      ranking: fields.get('ranking') ?? [],
      provider: facets.get('provider_fct') ?? [],
    },
    facets: Object.fromEntries(facets),
    numbers: {
      begin_time: dayNumberOf(fields.get('begin_time')),
      end_time: dayNumberOf(fields.get('end_time')),
      geocode_0_coordinate: result.latitude === '' ? null : Number(result.latitude),
      geocode_1_coordinate: result.longitude === '' ? null : Number(result.longitude),
    },
    result,
  };
}

/**
 * The same from the stored JSON text (derived from the XML by cortexToJson, so it has no
 * repeated keys and plain JSON.parse reads it whole). Text that is not JSON gives the
 * fields of an empty package under `storedId`.
 */
export function itemFieldsFromJson(json: string, storedId = ''): ItemFields {
  let pkg: unknown;
  try {
    pkg = JSON.parse(json);
  } catch {
    pkg = undefined;
  }
  return itemFields(pkg, storedId);
}

/** The keys of an ItemResultDoc, in the order a result shows them. */
const RESULT_KEYS = [
  'id',
  'title',
  'subtitle',
  'label',
  'thumbnail',
  'media',
  'category',
  'type',
  'latitude',
  'longitude',
] as const satisfies ReadonlyArray<keyof ItemResultDoc>;

/**
 * An item's stored fields (Solr's `fl`; docs/search.md "Stored fields"): its result doc's
 * fields, then every facet with values (distinct, in package order), then `begin_time` /
 * `end_time` as day numbers where the package has them.
 *
 * The store keeps them as JSON beside the package, written with it (item_fields), and a
 * search answer is shown from them (measured in the bench): showing a hit from its 10–60 KB
 * package left that much garbage on the search thread's heap per hit, and V8 let it grow
 * by some 300 MB over a cursor walk before collecting. Stored fields are ~700 bytes.
 * They are computed once per package version: a change to what this returns must come with
 * a migration of both backends that computes them again for the items stored (the golden
 * test in test/store/sqliteMigrations.test.ts fails until it is looked at).
 */
export function itemStoredFields({ result, facets, numbers }: ItemFields): Record<string, StoredValue> {
  const out: Record<string, StoredValue> = { ...result };
  for (const name of STORED_ITEM_FACETS) {
    const values = facets[name];
    if (values !== undefined && values.length > 0) out[name] = [...new Set(values)];
  }
  for (const name of ['begin_time', 'end_time'] as const) {
    const n = numbers[name];
    if (typeof n === 'number' && Number.isFinite(n)) out[name] = n;
  }
  return out;
}

/** The stored fields' JSON of a package's JSON text (the store writes it with the package). */
export function itemStoredFieldsJson(json: string, storedId: string): string {
  return JSON.stringify(itemStoredFields(itemFieldsFromJson(json, storedId)));
}

/** The result doc within stored fields (itemStoredFields): "" for a key they lack. */
export function resultDocOf(fields: Readonly<Record<string, StoredValue>>): ItemResultDoc {
  const doc = {} as Record<(typeof RESULT_KEYS)[number], string>;
  for (const key of RESULT_KEYS) {
    const v = fields[key];
    doc[key] = typeof v === 'string' ? v : '';
  }
  return doc;
}

/** The same from the cortex XML (parseXml, cortexToJson); XML that is not well-formed gives an empty package's. */
export function itemFieldsFromXml(xml: string, storedId = ''): ItemFields {
  let pkg: unknown;
  try {
    pkg = cortexToJson(parseXml(xml));
  } catch {
    pkg = undefined;
  }
  return itemFields(pkg, storedId);
}
