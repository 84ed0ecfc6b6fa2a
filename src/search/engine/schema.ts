/**
 * What a kind of document looks like to the search engine (docs/search-engine.md): persons and
 * items are two schemas on one engine (SearchIndex.ts), not two copies of one design.
 *
 * A field name may appear in more than one role: persons have a text field `dateOfBirth`
 * (terms search its words) and a numeric field `dateOfBirth` (ranges compare its year), and
 * a string sort key `preferredName` (ranges on the name compare folded names). A query names
 * a field; which role answers depends on the query node (evaluate.ts documents it).
 * The concrete schemas are in src/search/schemas/.
 */

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
  /**
   * The fields a hit shows: the keys of its stored document (IndexHost's EngineAnswer.fields),
   * which Solr's `fl` picks from (docs/search.md "Solr-native select"). Absent: a hit is shown
   * whole, never field by field.
   */
  storedFields?: readonly string[];
  /**
   * Language analysis (analysis.ts, docs/search-engine.md "Language analysis"): the text
   * fields indexed and searched in their analysed forms too, and the facet whose values
   * name a document's languages. Absent: exact (folded) matching only, as for persons,
   * whose names are not stemmed.
   */
  analysis?: { fields: readonly string[]; languageFacet: string };
  /**
   * The numeric fields that hold a document's point in WGS84 degrees, for geographic filters
   * and the distance order (geo.ts). Absent: the kind has no points.
   */
  geo?: { latitude: string; longitude: string };
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
  unique(
    'text field',
    schema.text.map((f) => f.name),
  );
  unique('facet', schema.facets);
  unique(
    'numeric field',
    schema.numbers.map((f) => f.name),
  );
  unique(
    'sort key',
    schema.sortKeys.map((k) => k.name),
  );
  for (const t of schema.relevanceTiebreak) {
    if (!schema.sortKeys.some((k) => k.name === t.key)) throw new Error(`schema ${schema.kind}: tiebreak on unknown sort key ${t.key}`);
  }
  for (const f of schema.analysis?.fields ?? [])
    if (!schema.text.some((t) => t.name === f)) throw new Error(`schema ${schema.kind}: analysed field ${f} is no text field`);
  if (schema.analysis && !schema.facets.includes(schema.analysis.languageFacet))
    throw new Error(`schema ${schema.kind}: language facet ${schema.analysis.languageFacet} is no facet`);
  if (schema.geo)
    for (const f of [schema.geo.latitude, schema.geo.longitude])
      if (!schema.numbers.some((n) => n.name === f)) throw new Error(`schema ${schema.kind}: geo field ${f} is no numeric field`);
  for (const f of schema.text) if (!(f.weight > 0)) throw new Error(`schema ${schema.kind}: weight of ${f.name} must be > 0`);
}
