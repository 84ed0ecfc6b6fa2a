/**
 * Strict checks of the query string, before the schema's own validation
 * (docs/decisions.md "Numbers", "Unknown parameters"). Ajv coerces "Infinity", "1e3", "0x10", " 5" and ""
 * to numbers, so `rows=Infinity` once returned every person; here each
 * integer parameter of a route's schema must be written in decimal digits
 * and lie in its range, and the query string must be valid percent-encoding
 * (`query=%zz` is a 400, not a search for the literal text).
 *
 * A parameter the operation does not take is a 400 naming it and listing
 * those it takes: ignored, `/entities?q=Goethe` once
 * returned every person. The parameters are the properties of the route's
 * querystring schema (none when it has none); OAuth 1.0 protocol parameters
 * (`oauth_consumer_key`, and the other `oauth_*` a client may send in the
 * query, RFC 5849 section 3.5.3) are always allowed. A route may name, in its
 * config as `parameterHints`, parameters of the real API it does not support,
 * with what to use instead. The unknown name is shown only when it looks like
 * a name (a client that wrote `?<key>` must not see its key in a message);
 * a value is never shown.
 *
 * Installed by an onRoute hook on every GET and HEAD route, as a preValidation hook:
 * after the key check and the rate limit (docs/errors.md "Order of checks"),
 * before ajv coerces.
 */
import type { preValidationHookHandler, RouteOptions } from 'fastify';
import { ApiError } from '../errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Parameters of the real API the route does not support, each with what to use instead. */
    parameterHints?: Readonly<Record<string, string>>;
    /** The route takes any query string and ignores it (binaries: cache-busters and size hints of image links). */
    ignoresQuery?: boolean;
  }
}

/** OAuth 1.0 protocol parameters (RFC 5849 section 3.5.3), the key among them. */
const OAUTH_PARAMETER = /^oauth_/;
/** A name short and plain enough to be shown back: an API key is 43 characters. */
const SHOWABLE_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,31}$/;

interface IntegerParam {
  name: string;
  min: number;
  max: number;
}

type Properties = Record<string, { type?: unknown; minimum?: number; maximum?: number; description?: string }>;

/**
 * How the description of a parameter a route declares only to refuse it by name begins
 * (edismax's parameters the Solr route does not implement): such parameters are left out of
 * the list of those the operation takes.
 */
export const REFUSED_PARAMETER = 'Refused with a 400 that names it: ';

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

/** The 400 for a parameter the route does not take, or undefined when every one is known. */
function unknownParameter(
  query: Record<string, unknown>,
  properties: Properties,
  hints: Readonly<Record<string, string>>,
): ApiError | undefined {
  for (const name of Object.keys(query)) {
    if (Object.hasOwn(properties, name) || OAUTH_PARAMETER.test(name)) continue;
    if (Object.hasOwn(hints, name)) return ApiError.of('unsupportedParameter', `'${name}'`, hints[name]!);
    const known = Object.keys(properties).filter(
      (p) => !OAUTH_PARAMETER.test(p) && !(properties[p]!.description ?? '').startsWith(REFUSED_PARAMETER),
    );
    const listed = known.length === 0 ? 'none (oauth_consumer_key aside)' : `${known.join(', ')} (and oauth_consumer_key)`;
    const shown = SHOWABLE_NAME.test(name)
      ? `'${name}'`
      : "(its name is not shown: it is not a plain name of at most 32 letters, digits, '_', '.', '-')";
    return ApiError.of('unknownParameter', shown, listed);
  }
  return undefined;
}

function queryCheck(properties: Properties, hints: Readonly<Record<string, string>>): preValidationHookHandler {
  const integers = integerParams(properties);
  return (request, _reply, done) => {
    const q = request.url.indexOf('?');
    if (q < 0) return done();
    const part = malformedPart(request.url.slice(q + 1), properties);
    if (part !== undefined) return done(ApiError.of('malformedUrl', part));
    const query = request.query as Record<string, unknown>;
    const unknown = unknownParameter(query, properties, hints);
    if (unknown !== undefined) return done(unknown);
    try {
      for (const param of integers) checkInteger(param, query[param.name]);
    } catch (error) {
      return done(error as Error);
    }
    done();
  };
}

/** onRoute hook: adds the check to each GET and HEAD route. */
export function addQueryChecks(route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (!methods.some((m) => m === 'GET' || m === 'HEAD') || route.config?.ignoresQuery === true) return;
  const properties = (route.schema?.querystring as { properties?: Properties } | undefined)?.properties ?? {};
  const hints = route.config?.parameterHints ?? {};
  const check = queryCheck(properties, hints);
  const existing = route.preValidation;
  route.preValidation = existing === undefined ? [check] : Array.isArray(existing) ? [check, ...existing] : [check, existing];
}
