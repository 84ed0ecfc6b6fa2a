/**
 * Solr's `sort` (docs/search.md "Solr-native select"): `score desc`, `id asc|desc`,
 * `<sort key> asc|desc` for a sort key of the schema, `random_<seed> asc`, optionally
 * followed by `, id asc`.
 */
import { ApiError } from '../../errors.js';
import type { Schema } from '../../search/engine/schema.js';
import type { SearchSort } from '../../search/engine/types.js';

const bad = (message: string) => ApiError.of('invalidSearch', message);

export function readSolrSort(text: string | undefined, schema: Schema): SearchSort {
  if (text === undefined || text.trim() === '') return { kind: 'relevance' };
  const clauses = text.split(',').map((c) => c.trim().split(/\s+/));
  // Every order here ends with the id ascending already (cursors need no more).
  if (clauses.length === 2 && clauses[1]!.join(' ') === 'id asc') clauses.pop();
  const keys = schema.sortKeys.map((k) => k.name);
  const allowed = `score desc, id asc, id desc, ${keys.map((k) => `${k} asc, ${k} desc`).join(', ')} or random_<seed> asc`;
  if (clauses.length !== 1 || clauses[0]!.length !== 2)
    throw bad(`Can't use sort '${text.slice(0, 60)}': give one field and a direction, e.g. sort=score desc. Sorts: ${allowed}.`);
  const [field, dir] = clauses[0] as [string, string];
  if (dir !== 'asc' && dir !== 'desc') throw bad(`Unknown sort order '${dir.slice(0, 20)}' in sort: use asc or desc.`);
  const descending = dir === 'desc';
  if (field === 'score') {
    if (!descending) throw bad('sort=score asc is not offered: the relevance order is score desc.');
    return { kind: 'relevance' };
  }
  if (field === 'id') return { kind: 'id', descending };
  if (field.startsWith('random_') && field.length > 'random_'.length) {
    if (descending) throw bad(`sort=${field} desc is not offered: a random order is ${field} asc.`);
    return { kind: 'random', seed: field.slice('random_'.length) };
  }
  if (keys.includes(field)) return { kind: 'key', key: field, descending };
  throw bad(`Can't sort on '${field.slice(0, 40)}'. Sorts: ${allowed}.`);
}
