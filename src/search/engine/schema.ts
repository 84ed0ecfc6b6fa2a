/**
 * What a kind of document looks like to the search engine (docs/search-engine.md): persons and
 * items are two schemas on one engine (SearchIndex.ts), not two copies of one design.
 *
 * A field name may appear in more than one role: persons have a text field `dateOfBirth`
 * (terms search its words) and a numeric field `dateOfBirth` (ranges compare its year), and
 * a string sort key `preferredName` (ranges on the name compare folded names). A query names
 * a field; which role answers depends on the query node (evaluate.ts documents it).
 */
import { canonicalPersonId } from '../../domain/person.js';
import { yearOf } from '../fold.js';

export interface TextFieldSpec {
  name: string;
  /** Relevance weight: what a match in this field is worth against one in another. */
  weight: number;
}

export interface NumericFieldSpec {
  name: string;
  /**
   * Reads a range bound or a term of a query (`begin_time:[680000 TO *]`, `dateOfBirth:[1700
   * TO 1800]`); null = not a value of this field (a 400 for the client). Default: a number.
   */
  parse?: (text: string) => number | null;
  /** Example for messages, e.g. `dateOfBirth:[1800 TO 1850]`. */
  example: string;
  /** What a range compares, for messages ("years"); default "numbers". */
  values?: string;
}

export interface SortKeySpec {
  name: string;
  type: 'string' | 'number';
  /** A string key that a query may range over under this field name (`preferredName:[a TO b]`). */
  queryable?: boolean;
}

export interface Schema {
  /** The kind of document, for messages ("person", "item"). */
  kind: string;
  /** The query field whose term or phrase is an exact identifier match (`id:"…"`). */
  idField: string;
  /** Normalises an identifier in a query before lookup (e.g. https GND URIs to http). */
  normalizeId?: (text: string) => string;
  /**
   * Text fields in index order. The first one is the "exact match" field of relevance: a
   * document whose first value of it has exactly the query's words ranks first (docs/search.md
   * "Relevance"). At most 32 (a bit each in a per-document mask).
   */
  text: readonly TextFieldSpec[];
  /** Facet fields: exact string values, counted and filtered on (and queried as `facet:"value"`). */
  facets: readonly string[];
  numbers: readonly NumericFieldSpec[];
  sortKeys: readonly SortKeySpec[];
  /**
   * The order within equal relevance, before the id: sort keys with a direction. Every sort
   * ends with the id ascending, so that the order is total and cursors are exact.
   */
  relevanceTiebreak: ReadonlyArray<{ key: string; descending: boolean }>;
  /** Query fields whose only value is a constant (`type:person`): a folded match = every document. */
  constants?: Readonly<Record<string, string>>;
}

/** Every field name a query may use under this schema, for `parseQuery(text, { fields })`. */
export function queryFields(schema: Schema): string[] {
  const names = [
    schema.idField,
    ...Object.keys(schema.constants ?? {}),
    ...schema.text.map((f) => f.name),
    ...schema.facets,
    ...schema.numbers.map((f) => f.name),
    ...schema.sortKeys.filter((k) => k.queryable).map((k) => k.name),
  ];
  return [...new Set(names)];
}

/** Checks a schema once, at index construction: a wrong schema is a programming error. */
export function validateSchema(schema: Schema): void {
  if (schema.text.length === 0 || schema.text.length > 32) throw new Error(`schema ${schema.kind}: 1 to 32 text fields`);
  const unique = (what: string, names: readonly string[]) => {
    if (new Set(names).size !== names.length) throw new Error(`schema ${schema.kind}: duplicate ${what} name`);
  };
  unique('text field', schema.text.map((f) => f.name));
  unique('facet', schema.facets);
  unique('numeric field', schema.numbers.map((f) => f.name));
  unique('sort key', schema.sortKeys.map((k) => k.name));
  for (const t of schema.relevanceTiebreak) {
    if (!schema.sortKeys.some((k) => k.name === t.key)) throw new Error(`schema ${schema.kind}: tiebreak on unknown sort key ${t.key}`);
  }
  for (const f of schema.text) if (!(f.weight > 0)) throw new Error(`schema ${schema.kind}: weight of ${f.name} must be > 0`);
}

/** A year in a free-text date, or a plain (possibly negative) integer (docs/decisions.md "Dates"). */
function yearBound(text: string): number | null {
  const y = yearOf(text);
  if (y !== null) return y;
  return /^-?\d+$/.test(text) ? Number(text) : null;
}

/**
 * Persons (docs/decisions.md "Entity search"; src/query/ast.ts QUERY_FIELDS; the facets of
 * src/search/entitySearch.ts). Relevance ties are broken as today: by item count
 * descending, then folded name, then id.
 */
export const personSchema: Schema = {
  kind: 'person',
  idField: 'id',
  // `id:"https://d-nb.info/gnd/…"` finds the http form (docs/decisions.md "GND ids").
  normalizeId: (text) => canonicalPersonId(text) ?? text,
  text: [
    { name: 'preferredName', weight: 8 },
    { name: 'variantName', weight: 4 },
    { name: 'professionOrOccupation', weight: 2 },
    { name: 'placeOfBirth', weight: 1 },
    { name: 'placeOfDeath', weight: 1 },
    { name: 'dateOfBirth', weight: 1 },
    { name: 'dateOfDeath', weight: 1 },
    { name: 'gender', weight: 1 },
  ],
  facets: ['person_name_fct', 'person_place_fct', 'person_gender_fct', 'person_occupation_fct'],
  numbers: [
    { name: 'dateOfBirth', parse: yearBound, example: 'dateOfBirth:[1800 TO 1850]', values: 'years' },
    { name: 'dateOfDeath', parse: yearBound, example: 'dateOfDeath:[1800 TO 1850]', values: 'years' },
    { name: 'count', example: 'count:[1 TO *]' },
  ],
  sortKeys: [
    { name: 'preferredName', type: 'string', queryable: true },
    { name: 'count', type: 'number' },
  ],
  relevanceTiebreak: [
    { key: 'count', descending: true },
    { key: 'preferredName', descending: false },
  ],
  constants: { type: 'person' },
};

/**
 * The facets of an item: every `*_fct` an indexing profile carries (the real packages
 * fixtures/items/cortex/*, old and new generation, and the packages we build from EDM),
 * with their `_normdata` forms (authority URIs), but not the `_autocomplete` copies of the
 * newer generation (the same values again, for suggestions). Values as the profile writes
 * them: `time_fct` holds codes of the DDB time vocabulary (`time_61900` = 19th century),
 * `type_fct` media types (`mediatype_002`), `sector_fct` sectors (`sec_06`). Ours, derived
 * by itemDocument.ts: `affiliate_fct_involved` and `affiliate_fct_subject` (the names of
 * `affiliate_fct_role` with that role: `Pecht, August Friedrich_1_affiliate_fct_involved`
 * gives `Pecht, August Friedrich`; the real /search takes both as parameters, OpenAPI
 * 6.8) and `has_media_fct` ("true"/"false": whether the package lists binaries).
 */
export const ITEM_FACETS = [
  'time_fct',
  'place_fct',
  'place_fct_normdata',
  'affiliate_fct',
  'affiliate_fct_normdata',
  'affiliate_fct_role',
  'affiliate_fct_role_normdata',
  'affiliate_fct_involved',
  'affiliate_fct_subject',
  'keywords_fct',
  'keywords_fct_normdata',
  'topic_fct',
  'objecttype_fct',
  'objecttype_fct_normdata',
  'apd_keywords_fct',
  'language_fct',
  'type_fct',
  'sector_fct',
  'provider_fct',
  'provider_fct_normdata',
  'dataprovider_fct',
  'dataprovider_fct_normdata',
  'has_media_fct',
] as const;

/**
 * Items (the mapping from a package: itemDocument.ts; the field list: docs/search-engine.md
 * "Item fields"): the title of the view's index fields (else the preview's), the
 * preview's subtitle, the index fields `description` and `ranking`, and the profile's
 * facets as words (keywords, places, affiliates, providers). Text field names are the
 * query fields of the real /search (OpenAPI 6.8: `title`, `description`, `keywords`,
 * `place`, `affiliate`, `provider`, `ranking`). Weights: title over subtitle over keywords
 * and people over description over the rest (docs/search.md "Relevance").
 * `begin_time` / `end_time` are the view's day numbers (days from 0001-01-01, Julian
 * calendar before 1582-10-15: 680449 = 1864-01-01; src/ingest/edm/timeVocabulary.ts).
 */
export const itemSchema: Schema = {
  kind: 'item',
  idField: 'id',
  text: [
    { name: 'title', weight: 8 },
    { name: 'subtitle', weight: 4 },
    { name: 'keywords', weight: 3 },
    { name: 'affiliate', weight: 3 },
    { name: 'description', weight: 2 },
    { name: 'place', weight: 2 },
    { name: 'ranking', weight: 1 },
    { name: 'provider', weight: 1 },
  ],
  facets: ITEM_FACETS,
  numbers: [
    { name: 'begin_time', example: 'begin_time:[680000 TO 690000]' },
    { name: 'end_time', example: 'end_time:[680000 TO 690000]' },
  ],
  sortKeys: [
    { name: 'title', type: 'string' },
    { name: 'begin_time', type: 'number' },
  ],
  relevanceTiebreak: [{ key: 'title', descending: false }],
};
