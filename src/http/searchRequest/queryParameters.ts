/**
 * The query string as the search routes read it (docs/architecture.md "The life of a search
 * request"): Fastify hands each parameter as a string, an array of strings when repeated,
 * or a number once the route's schema has coerced it.
 */
import { ApiError } from '../../errors.js';

export type Query = Record<string, string | string[] | number | undefined>;

/** Every value of a parameter, in the order sent; none when it is absent. */
export const list = (v: Query[string]): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [String(v)]);

/** A parameter that must come at most once. */
export function one(q: Query, name: string): string | undefined {
  const v = q[name];
  if (Array.isArray(v)) {
    if (v.length > 1) throw ApiError.of('invalidSearch', `The parameter ${name} is given ${v.length} times; send it once.`);
    return v[0] === undefined ? undefined : String(v[0]);
  }
  return v === undefined ? undefined : String(v);
}
