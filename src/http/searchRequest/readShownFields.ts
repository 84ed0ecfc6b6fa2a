/**
 * Solr's `fl` (docs/search.md "Solr-native select"): the stored fields a hit shows, among
 * those of the index's schema (Schema.storedFields), and whether the score is one of them;
 * `*` (the default) is every stored field.
 */
import { ApiError } from '../../errors.js';
import type { StoredValue } from '../../search/engine/types.js';

export interface ShownFields {
  fields: readonly string[] | '*';
  score: boolean;
}

export function readShownFields(text: string | undefined, stored: readonly string[]): ShownFields {
  const names = (text ?? '*').split(/[\s,]+/).filter((n) => n !== '');
  let all = names.length === 0;
  let score = false;
  const fields: string[] = [];
  for (const n of names) {
    if (n === '*') all = true;
    else if (n === 'score') score = true;
    else if (stored.includes(n)) fields.push(n);
    else
      throw ApiError.of(
        'invalidSearch',
        `fl names '${n.slice(0, 40)}', which is not a stored field. Stored fields: ${stored.join(', ')}; * for all, score for the score.`,
      );
  }
  return { fields: all ? '*' : fields, score };
}

/** The fields of `doc` that `shown` picks, with the score when it is one (`score` given). */
export function shownFieldsOf(
  doc: Readonly<Record<string, StoredValue>>,
  shown: readonly string[] | '*',
  score: number | undefined,
): Record<string, StoredValue> {
  const out: Record<string, StoredValue> = {};
  if (shown === '*') Object.assign(out, doc);
  else for (const f of shown) if (doc[f] !== undefined) out[f] = doc[f]!;
  if (score !== undefined) out.score = score;
  return out;
}
