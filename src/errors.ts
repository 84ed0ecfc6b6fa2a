/**
 * The one error catalog of the service.
 *
 * Every error a client or an operator can see has a stable `name`, an HTTP
 * `status` and a message that says what to do. `docs/errors.md` lists the same
 * entries; test/errors/catalog.test.ts keeps the two in step (as fastify does
 * with its error list).
 *
 * Names of errors the real DDB API has (ItemNotFoundException,
 * NotAcceptableException, NotAuthorizedException, GeneralException) are kept
 * so that existing clients that switch on them keep working
 * (ddb-openapi-6.8.yml, components/responses; docs/decisions.md "Errors").
 */

export interface ErrorDefinition<A extends unknown[]> {
  readonly name: string;
  readonly status: number;
  /** Names of the message's arguments, for docs/errors.md. */
  readonly params: readonly string[];
  readonly message: (...args: A) => string;
}

/** Keep echoed input short: a 10,000-character id must not become a 10 KB message. */
export function shown(value: string, max = 80): string {
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return clean.length > max ? `${clean.slice(0, max)}… (${value.length} characters)` : clean;
}

function define<A extends unknown[]>(
  name: string,
  status: number,
  params: readonly string[],
  message: (...args: A) => string,
): ErrorDefinition<A> {
  return { name, status, params, message };
}

export const ERRORS = {
  // --- requests (docs/decisions.md "Requests") ---
  missingHost: define(
    'MissingHostException',
    400,
    [],
    () => 'The Host header is required (HTTP/1.1, RFC 9112 section 3.2). Send the host name of the service in a Host header.',
  ),
  badRequest: define('BadRequestException', 400, ['detail'], (detail: string) => `Bad request: ${detail}`),
  invalidItemId: define(
    'InvalidItemIdException',
    400,
    ['id'],
    (id: string) =>
      `The item id '${shown(id)}' is not valid. An item id is 1 to 200 characters: letters, digits, '-', '_', '.' and ':', not starting with '.' and without '..'.`,
  ),
  malformedAuthorization: define(
    'MalformedAuthorizationException',
    400,
    ['detail'],
    (detail: string) =>
      `The Authorization header could not be read: ${detail}. Send 'Authorization: OAuth oauth_consumer_key="<API key>"' or the query parameter oauth_consumer_key.`,
  ),
  missingApiKey: define(
    'NotAuthorizedException',
    401,
    [],
    () =>
      'No API key was sent. Send \'Authorization: OAuth oauth_consumer_key="<API key>"\' or the query parameter oauth_consumer_key=<API key>.',
  ),
  invalidApiKey: define(
    'NotAuthorizedException',
    403,
    [],
    () =>
      'Your security level does not allow access to this method: the API key is unknown or revoked. Ask the operator of this service for a valid key.',
  ),
  // The operations: those of /openapi.json, listed from the routes themselves (src/http/allowedMethods.ts).
  routeNotFound: define(
    'NotFoundException',
    404,
    ['method', 'path', 'operations'],
    (method: string, path: string, operations: string) =>
      `There is no ${method} ${shown(path)}. The operations are GET ${operations}; each also under /2. See / for the list, /openapi.json for the description and /docs to try them.`,
  ),
  uriTooLong: define(
    'UriTooLongException',
    414,
    ['length', 'max'],
    (length: number, max: number) => `The request URL has ${length} characters; at most ${max} are accepted. Shorten the query or the id.`,
  ),
  reconcileBatchTooLarge: define(
    'PayloadTooLargeException',
    413,
    ['count', 'max'],
    (count: number, max: number) =>
      `The reconciliation request holds ${count} queries or ids; at most ${max} are taken at once (the manifest's batchSize). Send them in batches of ${max} or fewer.`,
  ),
  // The W3C Reconciliation API 0.2 "Authentication": "When invalid authentication is supplied in any
  // HTTP request, the service MUST return an HTTP 401 error" (the other routes answer 403, as the DDB).
  reconcileInvalidApiKey: define(
    'NotAuthorizedException',
    401,
    [],
    () =>
      "The API key is unknown or revoked. Send a valid key as the manifest's security scheme says (oauth_consumer_key=<API key>); the operator of this service gives keys.",
  ),
  reconcileEntityNotFound: define(
    'EntityNotFoundException',
    404,
    ['id'],
    (id: string) =>
      `There is no person, institution or item with the id '${shown(id)}'. Send an id as a reconciliation candidate or suggestion names it.`,
  ),
  notAcceptable: define(
    'NotAcceptableException',
    406,
    ['offered'],
    (offered: string) => `The requested type is not acceptable. Send an Accept header that allows ${offered}.`,
  ),
  malformedRequest: define(
    'MalformedRequestException',
    400,
    ['detail'],
    (detail: string) =>
      `The request is not valid HTTP/1.1 (RFC 9112): ${detail}. The connection is closed; send a well-formed request on a new one.`,
  ),
  malformedUrl: define(
    'MalformedUrlException',
    400,
    ['part'],
    (part: string) =>
      `The ${part} of the URL is not valid percent-encoding: each '%' must begin a %XX escape of UTF-8 bytes. Write a literal '%' as %25 and characters outside ASCII as their UTF-8 escapes (e.g. %C3%A4 for 'ä').`,
  ),
  invalidInteger: define(
    'InvalidParameterException',
    400,
    ['parameter', 'min', 'max'],
    (parameter: string, min: number, max: number) =>
      `The parameter ${parameter} must be given once, as a whole number from ${min} to ${max} in the digits 0-9 only (no sign, space, decimal point, exponent or hex).`,
  ),
  unknownParameter: define(
    'UnknownParameterException',
    400,
    ['parameter', 'known'],
    (parameter: string, known: string) =>
      `The query parameter ${parameter} is not one this operation takes, so it would be ignored. Its parameters: ${known}. Check the spelling (names are case-sensitive), or see /openapi.json.`,
  ),
  unsupportedParameter: define(
    'UnsupportedParameterException',
    400,
    ['parameter', 'instead'],
    (parameter: string, instead: string) =>
      `The query parameter ${parameter} of the DDB API is not supported here, so it would be ignored. ${instead}`,
  ),
  methodNotAllowed: define(
    'MethodNotAllowedException',
    405,
    ['method', 'path'],
    (method: string, path: string) =>
      `${method} is not allowed on ${shown(path)}: this API is read-only. Use GET or HEAD (the Allow header lists the methods).`,
  ),
  requestTimeout: define(
    'RequestTimeoutException',
    408,
    ['seconds'],
    (seconds: number) => `The request was not complete within ${seconds} seconds. Send the whole request at once, on a new connection.`,
  ),
  headersTooLarge: define(
    'RequestHeaderFieldsTooLargeException',
    431,
    ['maxBytes', 'maxUrlLength'],
    (maxBytes: number, maxUrlLength: number) =>
      `The request line and headers together exceed ${maxBytes} bytes. Keep the URL to at most ${maxUrlLength} characters and send fewer or shorter headers.`,
  ),
  rateLimited: define(
    'TooManyRequestsException',
    429,
    ['retryAfterSeconds'],
    (retryAfterSeconds: number) =>
      `Too many requests for this API key (or, without a valid key, from this address). Wait ${retryAfterSeconds} seconds (see the Retry-After header) and try again.`,
  ),
  // --- entity search (spec 4.2, docs/decisions.md "Entity search") ---
  invalidQuery: define(
    'QuerySyntaxException',
    400,
    ['detail'],
    (detail: string) => `${detail} See the query syntax in docs/api.md (Lucene standard syntax).`,
  ),
  invalidSearch: define('InvalidSearchException', 400, ['detail'], (detail: string) => detail),
  // Bounds on a search's work, so no request can hold the server (docs/decisions.md "Bounded
  // searches"; docs/configuration.md, section search).
  tooManyClauses: define(
    'TooManyClausesException',
    400,
    ['clauses', 'max'],
    (clauses: number, max: number) =>
      `The query has ${clauses} terms; at most ${max} are allowed. Use fewer OR alternatives, or split the search into several.`,
  ),
  wildcardTooBroad: define(
    'WildcardTooBroadException',
    400,
    ['pattern', 'max'],
    (pattern: string, max: number) =>
      `The wildcard '${shown(pattern)}' matches more than ${max} different words; put more letters before the first * or ?.`,
  ),
  queryTooBroad: define(
    'QueryTooBroadException',
    400,
    ['max'],
    (max: number) =>
      `The wildcards of the query together match more than ${max} different words; use fewer wildcards, or put more letters before each * or ?.`,
  ),
  searchOverBudget: define(
    'SearchTimeoutException',
    503,
    ['budgetMs', 'retryAfterSeconds'],
    (budgetMs: number, retryAfterSeconds: number) =>
      `The search was stopped after ${budgetMs} ms, its time budget. Narrow the query: fewer wildcards, more letters before each * or ?, fewer OR alternatives; or retry after ${retryAfterSeconds} seconds (see the Retry-After header).`,
  ),
  searchBusy: define(
    'SearchBusyException',
    503,
    ['retryAfterSeconds'],
    (retryAfterSeconds: number) =>
      `Too many searches are running or waiting. Retry after ${retryAfterSeconds} seconds (see the Retry-After header).`,
  ),
  // --- items (spec section 7) ---
  itemNotFound: define('ItemNotFoundException', 404, ['id'], (id: string) => `Item '${shown(id)}' not found.`),
  itemBlocked: define(
    'ItemBlockedException',
    403,
    ['id', 'reason'],
    (id: string, reason: string) => `Item '${shown(id)}' is not available through this interface: ${reason}`,
  ),
  itemPartNotFound: define(
    'ItemPartNotFoundException',
    404,
    ['id', 'part'],
    (id: string, part: string) =>
      `Item '${shown(id)}' has no ${part} part: its package does not contain one. GET /items/${shown(id)}/aip shows the parts the package has.`,
  ),
  // --- linked data (docs/linked-data.md) ---
  edmNotReadable: define(
    'NotAcceptableException',
    406,
    ['id', 'type', 'detail'],
    (id: string, type: string, detail: string) =>
      `The EDM of item '${shown(id)}' is not RDF/XML that can be read as triples (${shown(detail, 200)}), so it cannot be given as ${type}. ` +
      `Ask for application/rdf+xml: GET /items/${shown(id)}/edm serves it as stored.`,
  ),
  personNotFound: define(
    'PersonNotFoundException',
    404,
    ['id'],
    (id: string) =>
      `There is no person '${shown(id)}'. /entities/{gnd} takes the GND number of a stored person (e.g. 118540238); GET /entities?query=… searches the persons.`,
  ),
  sitemapNotFound: define(
    'NotFoundException',
    404,
    ['name'],
    (name: string) => `There is no sitemap '${shown(name)}'. /sitemap.xml lists the sitemaps this server has.`,
  ),
  // --- binaries and IIIF (docs/api.md "GET /binary/{path}", "GET /items/{id}/iiif") ---
  invalidBinaryPath: define(
    'InvalidBinaryPathException',
    400,
    ['path'],
    (path: string) =>
      `The binary path '${shown(path)}' is not valid. A binary path is /binary/<item id>/<variant>/<n>.<ext>, as in the binaries part of a package: ` +
      "segments of letters, digits, '-', '_', '.' and ':'; no segment empty, starting with '.' or holding '..'.",
  ),
  binariesNotServed: define(
    'BinaryNotFoundException',
    404,
    [],
    () => 'This service serves no binaries: its operator has set neither media.path nor media.baseUrl (docs/configuration.md).',
  ),
  binaryNotFound: define(
    'BinaryNotFoundException',
    404,
    ['path'],
    (path: string) =>
      `There is no binary at ${shown(path)}. The binaries of an item are listed in its package (/items/{id}/aip, part binaries).`,
  ),
  rangeNotSatisfiable: define(
    'RangeNotSatisfiableException',
    416,
    ['range', 'size'],
    (range: string, size: number) =>
      `The range '${shown(range)}' lies outside the file of ${size} bytes (see Content-Range). Ask for bytes from 0 to ${Math.max(0, size - 1)}, or send no Range.`,
  ),
  preconditionFailed: define(
    'PreconditionFailedException',
    412,
    [],
    () => 'The file has changed since the version named in If-Match or If-Unmodified-Since. Fetch it again without them.',
  ),
  itemHasNoBinaries: define(
    'NoBinariesException',
    404,
    ['id'],
    (id: string) => `Item '${shown(id)}' has no binaries, so there is no IIIF manifest for it. Its package is at /items/${shown(id)}/aip.`,
  ),
  itemHasNoChildren: define(
    'NoChildrenException',
    404,
    ['id'],
    (id: string) =>
      `Item '${shown(id)}' has no children in the store, so there is no IIIF Collection for it (docs/iiif.md). Its manifest, if it has binaries, is /items/${shown(id)}/iiif.`,
  ),
  iiifPageNotFound: define(
    'PageNotFoundException',
    404,
    ['what', 'page', 'first', 'last'],
    (what: string, page: number, first: number, last: number) =>
      `${what} has no page ${page}: its pages are ${first} to ${last}. Follow the links of the first answer (docs/iiif.md).`,
  ),
  // --- operators (docs/api.md "Health and metrics") ---
  notReady: define(
    'NotReadyException',
    503,
    ['reason', 'retryAfterSeconds'],
    (reason: string, retryAfterSeconds: number) =>
      `This server is not ready to answer: ${reason}. Retry after ${retryAfterSeconds} seconds (see the Retry-After header); /health/live tells whether the process runs at all.`,
  ),
  // A write (a load, a key, a block) while the PostgreSQL primary is down (docs/deployment.md "Replicas").
  primaryUnreachable: define(
    'PrimaryStoreUnreachableException',
    503,
    [],
    () =>
      'The primary store is unreachable, so this write was not made: loads, keys and blocks are written to the primary. Reads go on from the replicas; writes resume when the primary is back: run this again then.',
  ),
  // A read or write in a request while the store cannot answer: its server (with replicas,
  // every server) unreachable, or SQLite's write lock held past store.busyTimeoutSeconds.
  // Passing, so a 503 that a load balancer and a client retry, not a 500 (docs/decisions.md "Faults").
  storeUnavailable: define(
    'StoreUnavailableException',
    503,
    ['retryAfterSeconds'],
    (retryAfterSeconds: number) =>
      `The store behind this server cannot answer now (unreachable or busy), so this request was not answered. Retry after ${retryAfterSeconds} seconds (see the Retry-After header); /health/ready says when this server can answer again.`,
  ),
  // --- anything else ---
  internal: define(
    'GeneralException',
    500,
    ['requestId'],
    (requestId: string) => `Internal error. It has been logged; quote request id ${requestId} when you report it.`,
  ),
} as const;

export type ErrorKey = keyof typeof ERRORS;

/**
 * An answer of the catalog: thrown by the HTTP layer (and by a store's write while the
 * primary is down, which the CLI prints), and what src/http/errorMapping.ts turns every
 * other error into. Errors below HTTP carry a code instead (src/errorCodes.ts).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly errorName: string;
  readonly headers: Readonly<Record<string, string>>;

  private constructor(def: ErrorDefinition<never[]>, message: string, headers: Record<string, string>) {
    super(message);
    this.status = def.status;
    this.errorName = def.name;
    this.headers = headers;
  }

  static of<K extends ErrorKey>(key: K, ...args: Parameters<(typeof ERRORS)[K]['message']>): ApiError {
    const def = ERRORS[key] as unknown as ErrorDefinition<unknown[]>;
    return new ApiError(def, def.message(...args), {});
  }

  withHeaders(headers: Record<string, string>): ApiError {
    const copy = new ApiError({ name: this.errorName, status: this.status, params: [], message: () => this.message }, this.message, {
      ...this.headers,
      ...headers,
    });
    return copy;
  }
}

/** A problem an operator must fix before the program can run (bad config, unreadable file). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
