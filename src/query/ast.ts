/**
 * The query tree that `parseQuery` produces and the evaluator consumes.
 *
 * It is deliberately small and boolean: the evaluator decides which entities match and
 * scores them. A leaf's boost (`^N`) is a field of the leaf; optional SHOULD clauses next
 * to required ones have no node here; `parse.ts` documents how they are mapped.
 */

/** The searchable fields, spelled exactly as in the entity JSON (case-sensitive). */
export const QUERY_FIELDS = [
  'id',
  'type',
  'preferredName',
  'variantName',
  'dateOfBirth',
  'dateOfDeath',
  'placeOfBirth',
  'placeOfDeath',
  'professionOrOccupation',
  'gender',
  'count',
] as const;

export type QueryField = (typeof QUERY_FIELDS)[number];

/**
 * `F` is the set of field names: the person fields by default; a search engine schema
 * (src/search/schemas/) passes its own list to `parseQuery` and gets `QueryNode<string>`.
 */
export type QueryNode<F extends string = QueryField> =
  /** `*:*`, and a lone `*`. */
  | { kind: 'all' }
  /** Unescaped text; field null = any text field. `boost` (`term^2`): its score times this. */
  | { kind: 'term'; field: F | null; text: string; boost?: number }
  /** A term with a single trailing unescaped `*` (`goe*`); `text` is the prefix without it. */
  | { kind: 'prefix'; field: F | null; text: string; boost?: number }
  /**
   * Any other use of unescaped `*` or `?`. In `pattern`, `*` and `?` are wildcards; a
   * literal `*`, `?` or `\` (escaped in the query) is written with a backslash before it.
   */
  | { kind: 'wildcard'; field: F | null; pattern: string; boost?: number }
  /** `slop` (`"a b"~2`, absent for 0): its words within that many moves (docs/search.md "Proximity"). */
  | { kind: 'phrase'; field: F | null; text: string; slop?: number; boost?: number }
  /** `field:*`: the entity has a value in the field. */
  | { kind: 'exists'; field: F }
  /** A `*` bound is null (open). Bounds are text; the evaluator decides how to compare. */
  | {
      kind: 'range';
      field: F;
      lower: string | null;
      upper: string | null;
      includeLower: boolean;
      includeUpper: boolean;
    }
  /**
   * `should`: clauses that only add to the score of the hits that match them (edismax's
   * `pf` phrases, src/http/searchRequest/readEdismax.ts); they never change which match.
   */
  | { kind: 'and'; children: QueryNode<F>[]; should?: QueryNode<F>[] }
  /** `min`: at least that many children must match (edismax's `mm`); absent = 1. */
  | { kind: 'or'; children: QueryNode<F>[]; min?: number }
  | { kind: 'not'; child: QueryNode<F> };

/**
 * A plain term node (`{kind: 'term'}`) and the characters [start, end) of the user's query it
 * was read from, escapes included (`parseQueryWithTerms`): a spelling correction (docs/search-engine.md "Spellcheck")
 * rewrites exactly these and keeps the rest of the query as written.
 */
export interface TermSpan {
  node: Extract<QueryNode<string>, { kind: 'term' }>;
  start: number;
  end: number;
}

export function isQueryField(name: string): name is QueryField {
  return (QUERY_FIELDS as readonly string[]).includes(name);
}

/** `{ kind: 'all' }` has no field, so it is a node of every field set. */
export const ALL: { kind: 'all' } = { kind: 'all' };

/**
 * Builds an AND, flattening nested ANDs. `all` is the identity of AND, so it is dropped
 * when a positive child remains; it stays next to NOT-only children because the evaluator
 * needs something to subtract from (`-a` = and(all, not(a))).
 */
export function and<F extends string>(children: QueryNode<F>[]): QueryNode<F> {
  const flat = children.flatMap((c) => (c.kind === 'and' ? c.children : [c]));
  const hasPositive = flat.some((c) => c.kind !== 'all' && c.kind !== 'not');
  let kept = hasPositive ? flat.filter((c) => c.kind !== 'all') : flat;
  if (!hasPositive && kept.some((c) => c.kind === 'all')) {
    // keep exactly one `all`, first, in front of the NOT children
    kept = [ALL, ...kept.filter((c) => c.kind !== 'all')];
  }
  if (kept.length === 0) return ALL;
  if (kept.length === 1) return kept[0] as QueryNode<F>;
  return { kind: 'and', children: kept };
}

/** Builds an OR, flattening nested ORs; `all` absorbs an OR (a OR *:* matches everything). */
export function or<F extends string>(children: QueryNode<F>[]): QueryNode<F> {
  const flat = children.flatMap((c) => (c.kind === 'or' ? c.children : [c]));
  if (flat.some((c) => c.kind === 'all')) return ALL;
  if (flat.length === 1) return flat[0] as QueryNode<F>;
  return { kind: 'or', children: flat };
}

/**
 * Canonical, compact debug form used by the tests, e.g.
 * `AND(term(*:goethe), NOT(phrase(preferredName:"a b")))`. `*` stands for "any field".
 */
export function queryToString(node: QueryNode<string>): string {
  switch (node.kind) {
    case 'all':
      return 'ALL';
    case 'term':
      return `term(${node.field ?? '*'}:${node.text}${boostText(node.boost)})`;
    case 'prefix':
      return `prefix(${node.field ?? '*'}:${node.text}${boostText(node.boost)})`;
    case 'wildcard':
      return `wildcard(${node.field ?? '*'}:${node.pattern}${boostText(node.boost)})`;
    case 'phrase':
      return `phrase(${node.field ?? '*'}:${JSON.stringify(node.text)}${node.slop ? `~${node.slop}` : ''}${boostText(node.boost)})`;
    case 'exists':
      return `exists(${node.field})`;
    case 'range':
      return (
        `range(${node.field}:${node.includeLower ? '[' : '{'}` +
        `${node.lower ?? '*'} TO ${node.upper ?? '*'}${node.includeUpper ? ']' : '}'})`
      );
    case 'and': {
      const should = node.should?.length ? `, SHOULD(${node.should.map(queryToString).join(', ')})` : '';
      return `AND(${node.children.map(queryToString).join(', ')}${should})`;
    }
    case 'or':
      return `OR${node.min !== undefined && node.min > 1 ? `≥${node.min}` : ''}(${node.children.map(queryToString).join(', ')})`;
    case 'not':
      return `NOT(${queryToString(node.child)})`;
  }
}

function boostText(boost: number | undefined): string {
  return boost === undefined ? '' : `^${boost}`;
}
