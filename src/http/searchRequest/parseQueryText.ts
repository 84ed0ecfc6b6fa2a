/**
 * The query text of a search (`query`, Solr's `q` and `fq`) as a query tree, and the
 * operator between words without one (`defaultOperator`, Solr's `q.op`).
 */
import { ApiError } from '../../errors.js';
import { parseQuery, type QueryNode } from '../../query/parse.js';
import { queryFields, type Schema } from '../../search/engine/schema.js';
import { one, type Query } from './queryParameters.js';

export type Operator = 'AND' | 'OR';

/**
 * Parses a query over the field names `fields` (a schema's: queryFields; the person search
 * keeps the parser's default, src/query/ast.ts QUERY_FIELDS). A syntax error is the
 * parser's QuerySyntaxError, which ../errorMapping.ts answers with the catalog's 400 and its
 * position.
 */
export function parseQueryText(
  text: string,
  options: { fields?: readonly string[]; maxLength: number; defaultOperator?: Operator | undefined },
): QueryNode<string> {
  const { fields, maxLength } = options;
  const defaultOperator = options.defaultOperator ?? 'AND';
  return fields === undefined ? parseQuery(text, { maxLength, defaultOperator }) : parseQuery(text, { fields, maxLength, defaultOperator });
}

/** Parses a query over a schema's fields; a blank text is every document (`*:*`). */
export function parseFor(schema: Schema, text: string | undefined, maxLength: number, defaultOperator?: Operator): QueryNode<string> {
  return parseQueryText(text === undefined || text.trim() === '' ? '*:*' : text, {
    fields: queryFields(schema),
    maxLength,
    defaultOperator,
  });
}

/** The operator parameter `name` (`defaultOperator`, Solr's `q.op`): AND, OR or absent. */
export function readOperator(q: Query, name: string): Operator | undefined {
  const op = one(q, name);
  if (op !== undefined && op !== 'AND' && op !== 'OR')
    throw ApiError.of('invalidSearch', `${name} must be AND or OR, not '${op.slice(0, 20)}'.`);
  return op;
}
