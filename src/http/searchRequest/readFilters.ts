/**
 * The facet filters of a v1 search (docs/search.md "`GET /search`"): a parameter named after a
 * facet keeps the hits with one of its values; values of one facet are OR-ed, facets AND-ed.
 */
import { ApiError } from '../../errors.js';
import { list, type Query } from './queryParameters.js';

export interface FilterDialect {
  /** The facets of the index. */
  facets: readonly string[];
  /**
   * Where the values of a facet are listed, for the message on an empty value; absent: an
   * empty value is kept as a value (the person search has always done so).
   */
  listedBy?: (facet: string) => string;
  /** A value as the index keeps it (the person search's genders: src/search/schemas/personFields.ts). */
  normalise?: (facet: string, value: string) => string;
}

export function readFilters(q: Query, dialect: FilterDialect): Record<string, string[]> {
  const filters: Record<string, string[]> = {};
  for (const name of dialect.facets) {
    if (q[name] === undefined) continue;
    const values = list(q[name]);
    if (values.length === 0) continue;
    if (dialect.listedBy && values.some((v) => v === ''))
      throw ApiError.of(
        'invalidSearch',
        `${name} is empty: give a value to keep (${dialect.listedBy(name)} lists them), or leave the parameter out.`,
      );
    const normalise = dialect.normalise;
    filters[name] = normalise ? values.map((v) => normalise(name, v)) : values;
  }
  return filters;
}
