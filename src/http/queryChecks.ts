/**
 * Strict checks of the query string, before the schema's own validation
 * (issue #13, point 2). Ajv coerces "Infinity", "1e3", "0x10", " 5" and ""
 * to numbers, so `rows=Infinity` once returned every person; here each
 * integer parameter of a route's schema must be written in decimal digits
 * and lie in its range, and the query string must be valid percent-encoding
 * (`query=%zz` is a 400, not a search for the literal text).
 *
 * Installed by an onRoute hook on every route whose schema has a
 * querystring, as a preValidation hook: after the key check and the rate
 * limit (docs/errors.md "Order of checks"), before ajv coerces.
 */
import type { preValidationHookHandler, RouteOptions } from 'fastify';
import { ApiError } from '../errors.js';

interface IntegerParam {
  name: string;
  min: number;
  max: number;
}

type Properties = Record<string, { type?: unknown; minimum?: number; maximum?: number }>;

/** Decimal digits only; 16 at most, so that Number() is exact up to the safe range. */
const DIGITS = /^[0-9]{1,16}$/;

function integerParams(properties: Properties): IntegerParam[] {
  return Object.entries(properties)
    .filter(([, p]) => p.type === 'integer')
    .map(([name, p]) => ({ name, min: p.minimum ?? 0, max: Math.min(p.maximum ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER) }));
}

function checkInteger(param: IntegerParam, value: unknown): void {
  if (value === undefined) return;
  const n = typeof value === 'string' && DIGITS.test(value) ? Number(value) : NaN;
  if (!(Number.isSafeInteger(n) && n >= param.min && n <= param.max)) throw ApiError.of('invalidInteger', param.name, param.min, param.max);
}

/** The first parameter of a query string that is not valid percent-encoding, or undefined. */
function malformedPart(queryString: string, known: Properties): string | undefined {
  for (const pair of queryString.split('&')) {
    if (!pair.includes('%')) continue;
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    let decodedName: string;
    try {
      decodedName = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      return 'query string';
    }
    try {
      decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, ' '));
    } catch {
      // Name the parameter only when it is one of ours: any other name might be a key.
      return Object.hasOwn(known, decodedName) ? `value of the parameter ${decodedName}` : 'query string';
    }
  }
  return undefined;
}

function queryCheck(properties: Properties): preValidationHookHandler {
  const integers = integerParams(properties);
  return (request, _reply, done) => {
    const q = request.url.indexOf('?');
    if (q >= 0) {
      const part = malformedPart(request.url.slice(q + 1), properties);
      if (part !== undefined) return done(ApiError.of('malformedUrl', part));
    }
    const query = request.query as Record<string, unknown>;
    try {
      for (const param of integers) checkInteger(param, query[param.name]);
    } catch (error) {
      return done(error as Error);
    }
    done();
  };
}

/** onRoute hook: adds the check to each route with a querystring schema. */
export function addQueryChecks(route: RouteOptions): void {
  const properties = (route.schema?.querystring as { properties?: Properties } | undefined)?.properties;
  if (properties === undefined) return;
  const check = queryCheck(properties);
  const existing = route.preValidation;
  route.preValidation = existing === undefined ? [check] : Array.isArray(existing) ? [check, ...existing] : [check, existing];
}
