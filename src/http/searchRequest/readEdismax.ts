/**
 * Solr's extended dismax on the select route (docs/search.md "Solr-native select", "edismax"):
 * `defType=edismax` with its common parameters `qf`, `pf` and `mm`, as a query tree of the
 * engine. Its other parameters are refused with a 400 that names them, as is `qf`, `pf` or `mm`
 * without `defType=edismax` (Solr's standard parser would ignore them silently).
 *
 *   qf  fields with boosts (`title^10 description^2 keywords`): a word, phrase, prefix or
 *       wildcard of the query without a field is that clause in each of these fields, OR-ed;
 *       the boosts are the fields' weights for this request, in place of the schema's
 *       (a field without `^` weighs 1, as in Solr). Default: the schema's text fields and
 *       weights. The fields' scores are added (Solr's `tie=1`).
 *   pf  fields with boosts: the words of the query without a field (outside NOT), when there
 *       are two or more, as a phrase in each field, adding to the score of the hits that
 *       contain it; it changes no hit.
 *   mm  minimum should match, over the clauses of the query when all of them are optional
 *       (q.op=OR or `a OR b OR c`): `3` (at least 3), `-1` (all but 1), `75%` (at least 75 %,
 *       rounded down), `-25%` (all but 25 %, rounded down); never more than the clauses nor
 *       fewer than 1 (Solr's rule). Without mm, q.op says it: AND all, OR one.
 */
import { ApiError } from '../../errors.js';
import type { QueryNode } from '../../query/ast.js';
import type { Schema } from '../../search/engine/schema.js';
import { parseFor, type Operator } from './parseQueryText.js';
import { one, type Query } from './queryParameters.js';

/** edismax's parameters the route does not implement (Solr Reference Guide, "The Extended DisMax Query Parser"). */
export const EDISMAX_UNSUPPORTED = [
  'pf2',
  'pf3',
  'ps',
  'ps2',
  'ps3',
  'qs',
  'tie',
  'bq',
  'bf',
  'boost',
  'uf',
  'q.alt',
  'lowercaseOperators',
  'mm.autoRelax',
  'stopwords',
  'sow',
];

const bad = (msg: string) => ApiError.of('invalidSearch', msg);

/** `q` as the engine's query under `defType` (absent or `lucene`: the standard parser). */
export function readEdismax(q: Query, schema: Schema, maxLength: number, operator: Operator | undefined): QueryNode<string> {
  const defType = one(q, 'defType');
  const text = one(q, 'q');
  if (defType !== undefined && defType !== 'lucene' && defType !== 'edismax')
    throw bad(`defType=${defType.slice(0, 20)} is not offered; defType is lucene (the default) or edismax.`);
  if (defType !== 'edismax') {
    const misplaced = ['qf', 'pf', 'mm'].filter((p) => q[p] !== undefined);
    if (misplaced.length > 0) throw bad(`${misplaced.join(', ')} take effect only with defType=edismax; add it, or leave them out.`);
    return parseFor(schema, text, maxLength, operator);
  }
  const refused = EDISMAX_UNSUPPORTED.filter((p) => q[p] !== undefined);
  if (refused.length > 0)
    throw bad(`edismax's ${refused.join(', ')} ${refused.length === 1 ? 'is' : 'are'} not supported here; edismax takes qf, pf and mm.`);
  const qf = readFields(q, 'qf', schema) ?? schema.text.map((f) => ({ name: f.name, boost: f.weight }));
  const pf = readFields(q, 'pf', schema) ?? [];
  const mm = one(q, 'mm');
  const parsed = parseFor(schema, text, maxLength, mm !== undefined ? 'OR' : operator);
  const weight = new Map(schema.text.map((f) => [f.name, f.weight]));
  let query = expand(parsed, qf, weight);
  if (mm !== undefined) {
    const min = minimumShouldMatch(mm, parsed.kind === 'or' ? parsed.children.length : 1);
    if (min > 1 && query.kind === 'or') query = { ...query, min };
  }
  const words = pf.length > 0 ? plainWords(parsed) : [];
  if (words.length < 2) return query;
  const should: QueryNode<string>[] = pf.map((f) => ({
    kind: 'phrase',
    field: f.name,
    text: words.join(' '),
    boost: f.boost / weight.get(f.name)!,
  }));
  return { kind: 'and', children: [query], should };
}

/** `qf`/`pf`: text fields of the schema, each with an optional `^boost`. */
function readFields(q: Query, name: string, schema: Schema): Array<{ name: string; boost: number }> | undefined {
  const raw = one(q, name);
  if (raw === undefined) return undefined;
  const out: Array<{ name: string; boost: number }> = [];
  for (const part of raw.split(/[\s,]+/).filter((p) => p !== '')) {
    const m = /^([^^]+)(?:\^(\d+(?:\.\d+)?|\.\d+))?$/.exec(part);
    const field = m?.[1];
    if (m === null || field === undefined)
      throw bad(`${name}: '${part.slice(0, 40)}' is not a field with an optional boost, as in title^10.`);
    if (!schema.text.some((f) => f.name === field))
      throw bad(`${name}: '${field.slice(0, 40)}' is not a text field; text fields: ${schema.text.map((f) => f.name).join(', ')}.`);
    out.push({ name: field, boost: m[2] === undefined ? 1 : Number(m[2]) });
  }
  if (out.length === 0) throw bad(`${name} names no field; give fields with optional boosts, as in title^10 description.`);
  return out;
}

/**
 * Every clause without a field (word, phrase, prefix, wildcard) as that clause in each `qf`
 * field, OR-ed; its boost times the field's qf boost over the schema's weight, so that the
 * qf boost is the field's weight.
 */
function expand(
  node: QueryNode<string>,
  qf: ReadonlyArray<{ name: string; boost: number }>,
  weight: ReadonlyMap<string, number>,
): QueryNode<string> {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { ...node, children: node.children.map((c) => expand(c, qf, weight)) };
    case 'not':
      return { kind: 'not', child: expand(node.child, qf, weight) };
    case 'term':
    case 'phrase':
    case 'prefix':
    case 'wildcard': {
      if (node.field !== null) return node;
      const each = qf.map((f): QueryNode<string> => ({
        ...node,
        field: f.name,
        boost: ((node.boost ?? 1) * f.boost) / weight.get(f.name)!,
      }));
      return each.length === 1 ? each[0]! : { kind: 'or', children: each };
    }
    default:
      return node;
  }
}

/** The words of the plain terms without a field, outside NOT, in query order (edismax pf). */
function plainWords(node: QueryNode<string>): string[] {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.flatMap(plainWords);
    case 'term':
      return node.field === null ? [node.text] : [];
    default:
      return [];
  }
}

/** Solr's mm of `n` optional clauses: an integer, a negative one, a percentage or a negative percentage; clamped to 1…n. */
export function minimumShouldMatch(mm: string, n: number): number {
  const m = /^\s*(-?)(\d+)(%?)\s*$/.exec(mm);
  if (m === null)
    throw bad(
      `mm='${mm.slice(0, 30)}' is not supported; mm is a whole number (3), a negative one (-1), a percentage (75%) or a negative percentage (-25%).`,
    );
  const v = Number(m[2]);
  const pct = m[3] === '%';
  if (pct && v > 100) throw bad(`mm=${mm.trim()}: a percentage is at most 100%.`);
  const part = pct ? Math.floor((n * v) / 100) : v;
  const k = m[1] === '-' ? n - part : part;
  return Math.max(1, Math.min(n, k));
}
