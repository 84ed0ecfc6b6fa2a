/**
 * The v1 searches' `sort` (docs/search.md "Sorts"): RELEVANCE (the default), ALPHA_ASC,
 * ALPHA_DESC, COUNT_DESC where a search offers it, and RANDOM_<seed>; case-insensitive. Read
 * here as a named order; each search says what the name means in its index
 * (./itemSearch.ts, ./personSearch.ts, ./organizationSearch.ts).
 */
import { ApiError } from '../../errors.js';

export type NamedSort =
  { kind: 'relevance' } | { kind: 'alpha'; descending: boolean } | { kind: 'count' } | { kind: 'random'; seed: string };

/** The sorts of a search, as its `/sortcriteria` lists them. */
export interface SortCriteria {
  sortCriteria: readonly string[];
  defaultSortCriterion: string;
}

export const ITEM_SORTS = {
  sortCriteria: ['RELEVANCE', 'ALPHA_ASC', 'ALPHA_DESC', 'RANDOM_<seed>'],
  defaultSortCriterion: 'RELEVANCE',
} as const satisfies SortCriteria;

export const PERSON_SORTS = {
  sortCriteria: ['RELEVANCE', 'ALPHA_ASC', 'ALPHA_DESC', 'COUNT_DESC', 'RANDOM_<seed>'],
  defaultSortCriterion: 'RELEVANCE',
} as const satisfies SortCriteria;

/** The organizations sort as the persons do. */
export const ORGANIZATION_SORTS: SortCriteria = PERSON_SORTS;

/**
 * `sort` among `criteria`, with the seed a random order answers as `randomSeed` ("" for
 * any other). `hint` ends the message for an unknown sort: what to use instead (default:
 * the criteria as a sentence lists them).
 */
export function readSort(
  text: string | undefined,
  criteria: SortCriteria,
  hint = orList(criteria.sortCriteria),
): { sort: NamedSort; seed: string } {
  const t = (text ?? '').trim();
  const upper = t.toUpperCase();
  const offered = (name: string) => criteria.sortCriteria.includes(name);
  if (t === '' || upper === 'RELEVANCE') return { sort: { kind: 'relevance' }, seed: '' };
  if (upper === 'ALPHA_ASC' || upper === 'ALPHA_DESC') return { sort: { kind: 'alpha', descending: upper === 'ALPHA_DESC' }, seed: '' };
  if (upper === 'COUNT_DESC' && offered('COUNT_DESC')) return { sort: { kind: 'count' }, seed: '' };
  if (upper.startsWith('RANDOM_') && t.length > 'RANDOM_'.length) {
    const seed = t.slice('RANDOM_'.length);
    return { sort: { kind: 'random', seed }, seed };
  }
  throw ApiError.of('invalidSearch', `sort '${t.slice(0, 40)}' is not known. Use ${hint}.`);
}

/** The criteria as a sentence lists them: `A, B or C`. */
export function orList(names: readonly string[]): string {
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names.join('');
}
