/**
 * The per-field parameters of a v1 search (`title=…`, `preferredName=…`, `count=3`;
 * docs/search.md "`GET /search`", docs/api.md "`GET /entities`"): each value one clause, AND-ed with the query, as if
 * it were written into it (`query=… AND title:"…"`).
 */
import { ApiError } from '../../errors.js';
import type { QueryNode } from '../../query/ast.js';
import { list, type Query } from './queryParameters.js';

/**
 * The field a parameter searches and how: `phrase` (the words in this order), `term` (a
 * whole identifier), `number` (a whole number in decimal digits, compared as a number).
 */
export interface FieldParameter {
  field: string;
  as: 'phrase' | 'term' | 'number';
}

/** The clauses of the parameters named in `parameters`, in its order, each value at most `maxLength` characters. */
export function fieldClauses(q: Query, parameters: Readonly<Record<string, FieldParameter>>, maxLength: number): QueryNode<string>[] {
  const bad = (message: string) => ApiError.of('invalidSearch', message);
  const clauses: QueryNode<string>[] = [];
  for (const [name, { field, as }] of Object.entries(parameters)) {
    for (const value of list(q[name])) {
      if (value.length > maxLength) throw bad(`The value of ${name} is ${value.length} characters long; at most ${maxLength} are read.`);
      if (as === 'number') {
        if (!/^[0-9]{1,16}$/.test(value))
          throw bad(`${name} must be a whole number in the digits 0-9, e.g. ${name}=3; for a range use query=${field}:[1 TO *].`);
        clauses.push({ kind: 'term', field, text: String(Number(value)) });
        continue;
      }
      if (value.trim() === '') throw bad(`${name} is empty: give the text to look for, or leave the parameter out.`);
      clauses.push({ kind: as, field, text: value });
    }
  }
  return clauses;
}
