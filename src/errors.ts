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
 * (shared/reference/ddb-openapi-6.8.yml, components/responses).
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

function define<A extends unknown[]>(name: string, status: number, params: readonly string[], message: (...args: A) => string): ErrorDefinition<A> {
  return { name, status, params, message };
}

export const ERRORS = {
  // --- requests (decisions.md "Requests") ---
  missingHost: define('MissingHostException', 400, [], () =>
    'The Host header is required (HTTP/1.1, RFC 9112 section 3.2). Send the host name of the service in a Host header.'),
  badRequest: define('BadRequestException', 400, ['detail'], (detail: string) => `Bad request: ${detail}`),
  invalidItemId: define('InvalidItemIdException', 400, ['id'], (id: string) =>
    `The item id '${shown(id)}' is not valid. An item id is 1 to 200 characters: letters, digits, '-', '_', '.' and ':', not starting with '.' and without '..'.`),
  malformedAuthorization: define('MalformedAuthorizationException', 400, ['detail'], (detail: string) =>
    `The Authorization header could not be read: ${detail}. Send 'Authorization: OAuth oauth_consumer_key="<API key>"' or the query parameter oauth_consumer_key.`),
  missingApiKey: define('NotAuthorizedException', 401, [], () =>
    'No API key was sent. Send \'Authorization: OAuth oauth_consumer_key="<API key>"\' or the query parameter oauth_consumer_key=<API key>.'),
  invalidApiKey: define('NotAuthorizedException', 403, [], () =>
    'Your security level does not allow access to this method: the API key is unknown or revoked. Ask the operator of this service for a valid key.'),
  routeNotFound: define('NotFoundException', 404, ['method', 'path'], (method: string, path: string) =>
    `There is no ${method} ${shown(path)}. The operations are GET /entities, GET /items/{id}/parents, GET /items/{id}/aip and GET /items/{id}.`),
  uriTooLong: define('UriTooLongException', 414, ['length', 'max'], (length: number, max: number) =>
    `The request URL has ${length} characters; at most ${max} are accepted. Shorten the query or the id.`),
  notAcceptable: define('NotAcceptableException', 406, ['offered'], (offered: string) =>
    `The requested type is not acceptable. Send an Accept header that allows ${offered}.`),
  rateLimited: define('TooManyRequestsException', 429, ['retryAfterSeconds'], (retryAfterSeconds: number) =>
    `Too many requests for this API key. Wait ${retryAfterSeconds} seconds (see the Retry-After header) and try again.`),
  // --- entity search (spec 4.2, decisions.md "Entity search") ---
  invalidQuery: define('QuerySyntaxException', 400, ['detail'], (detail: string) =>
    `${detail} See the query syntax in docs/api.md (Lucene standard syntax).`),
  invalidSearch: define('InvalidSearchException', 400, ['detail'], (detail: string) => detail),
  // Bounds on a search's work (issue #13; docs/configuration.md, section search).
  tooManyClauses: define('TooManyClausesException', 400, ['clauses', 'max'], (clauses: number, max: number) =>
    `The query has ${clauses} terms; at most ${max} are allowed. Use fewer OR alternatives, or split the search into several.`),
  wildcardTooBroad: define('WildcardTooBroadException', 400, ['pattern', 'max'], (pattern: string, max: number) =>
    `The wildcard '${shown(pattern)}' matches more than ${max} different words; put more letters before the first * or ?.`),
  queryTooBroad: define('QueryTooBroadException', 400, ['max'], (max: number) =>
    `The wildcards of the query together match more than ${max} different words; use fewer wildcards, or put more letters before each * or ?.`),
  searchOverBudget: define('SearchTimeoutException', 503, ['budgetMs', 'retryAfterSeconds'], (budgetMs: number, retryAfterSeconds: number) =>
    `The search was stopped after ${budgetMs} ms, its time budget. Narrow the query: fewer wildcards, more letters before each * or ?, fewer OR alternatives; or retry after ${retryAfterSeconds} seconds (see the Retry-After header).`),
  searchBusy: define('SearchBusyException', 503, ['retryAfterSeconds'], (retryAfterSeconds: number) =>
    `Too many searches are running or waiting. Retry after ${retryAfterSeconds} seconds (see the Retry-After header).`),
  // --- items (spec section 7) ---
  itemNotFound: define('ItemNotFoundException', 404, ['id'], (id: string) => `Item '${shown(id)}' not found.`),
  itemBlocked: define('ItemBlockedException', 403, ['id', 'reason'], (id: string, reason: string) =>
    `Item '${shown(id)}' is not available through this interface: ${reason}`),
  // --- anything else ---
  internal: define('GeneralException', 500, ['requestId'], (requestId: string) =>
    `Internal error. It has been logged; quote request id ${requestId} when you report it.`),
} as const;

export type ErrorKey = keyof typeof ERRORS;

/**
 * An error that maps to one catalog entry. Thrown anywhere below the HTTP layer;
 * src/http/errorHandler.ts renders it in the format the client asked for.
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
    return new ApiError(def as ErrorDefinition<never[]>, def.message(...args), {});
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
