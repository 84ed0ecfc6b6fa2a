/**
 * The one configuration of heritage-api.
 *
 * Every default is in DEFAULTS below. A value can be overridden, in rising
 * order of precedence, by a JSON config file (--config FILE or
 * HERITAGE_API_CONFIG), by environment variables, and by command-line flags.
 * The result is validated against the shape and types of DEFAULTS, frozen,
 * and passed down as an argument; nothing reads it from a global.
 *
 * Environment variables are the path in upper snake case with the prefix
 * HERITAGE_API_, e.g. server.port -> HERITAGE_API_SERVER_PORT,
 * http.requireAccept -> HERITAGE_API_HTTP_REQUIRE_ACCEPT.
 * See docs/configuration.md.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { closestName } from './closestName.js';
import { UsageError } from './errors.js';

export const DEFAULTS = {
  store: {
    /** Backend of the store: "sqlite" (embedded, the default) or "postgres" (store.url; docs/deployment.md). */
    backend: 'sqlite',
    /** The PostgreSQL store, postgres://user:password@host:port/database, when store.backend is "postgres". */
    url: '',
    /** SQLite database file. */
    path: './data/heritage.db',
    /** SQLite page cache of the server's connection, in MB. */
    cacheMegabytes: 64,
    /** How long a write waits for another process's write lock (a batch of 100,000 persons holds it ~5 s) before it gives up. */
    busyTimeoutSeconds: 30,
    /**
     * PostgreSQL streaming replicas of store.url that serve reads (docs/deployment.md
     * "Replicas"); writes go to store.url. Env: comma-separated.
     */
    replicaUrls: [] as readonly string[],
    /** A replica further behind the primary than this, in seconds, is left out until it catches up. */
    maxReplicaLagSeconds: 5,
  },
  server: {
    host: '127.0.0.1',
    /** Plain HTTP port; 0 picks a free port. */
    port: 8080,
    /** HTTPS port, used only when tlsCert and tlsKey are set (both servers then run at once). */
    httpsPort: 8443,
    tlsCert: '',
    tlsKey: '',
    /** Trust X-Forwarded-* from a reverse proxy. */
    trustProxy: false,
    /**
     * warn: errors and warnings, no line per request. A request line costs about a
     * quarter of a cached `parents` answer (docs/configuration.md "The request log");
     * `info` turns the one-line-per-request log on.
     */
    logLevel: 'warn',
    /**
     * HTTP worker processes of `serve`, all on the one port (docs/deployment.md
     * "Workers"): 0 starts one per core (os.availableParallelism()),
     * 1 serves from a single process.
     */
    workers: 0,
  },
  http: {
    /**
     * Spec 4.1: a missing Accept gives 406. Operators whose clients send no
     * Accept at all can set this to false to answer them with JSON
     * (docs/decisions.md "Accept").
     */
    requireAccept: true,
    /** Allowed CORS origins: "*" or a comma-separated list. */
    corsOrigin: '*',
    /** Requests per key per window; 0 switches rate limiting off. */
    rateLimitMax: 0,
    rateLimitWindowSeconds: 60,
    /** Cache-Control max-age for item responses, in seconds. */
    cacheMaxAgeSeconds: 300,
    /** Bytes of compressed item bodies kept in memory (gzip/brotli of packages). */
    compressedCacheBytes: 64 * 1024 * 1024,
    /** Bytes of uncompressed item bodies (and heads) kept in memory while the data is unchanged. */
    packageBodyCacheBytes: 64 * 1024 * 1024,
    /** Longest accepted request URL, in characters. */
    maxUrlLength: 16 * 1024,
  },
  ingest: {
    /** Persons per transaction: pages every batch touches are written once per transaction (docs/configuration.md). */
    batchSize: 100_000,
    /** Item packages per transaction (each holds its XML and JSON bodies in memory until written). */
    itemBatchSize: 500,
    /** SQLite page cache of a load, in MB (store.cacheMegabytes is the server's). */
    cacheMegabytes: 256,
    /** Show a progress bar when stderr is a terminal. */
    progress: true,
    /**
     * JSON file of provider facts (name, URI, ids, logo, coordinates, sector,
     * state) that complete provider-info of packages built from EDM; "" for none.
     * Format: docs/edm-mapping.md.
     */
    providersFile: '',
    /**
     * Largest record any load accepts, in UTF-8 bytes, whatever its kind (a cortex
     * document, a package, an EDM record, a person); larger ones are skipped and reported.
     */
    maxRecordBytes: 16 * 1024 * 1024,
  },
  harvest: {
    /** Attempts after the first for one OAI-PMH request (network errors, 5xx, 503). */
    retries: 5,
    /** Longest wait between attempts, including a server's Retry-After. */
    maxRetryDelaySeconds: 120,
    /** One request may take this long before it is retried. */
    timeoutSeconds: 60,
  },
  media: {
    /**
     * Directory that /binary/<path> serves files from (docs/api.md "GET /binary/{path}"); "" serves
     * none. Its files are laid out as the packages' paths: <item-id>/<variant>/<n>.<ext>.
     */
    path: '',
    /**
     * Base URL that /binary/<path> redirects to (307) when the file is not in media.path;
     * "" for none. /binary/<id>/list/1.jpg goes to <baseUrl>/<id>/list/1.jpg.
     */
    baseUrl: '',
    /**
     * Origins (`https://images.example.org`) whose images the pages may show where a record
     * built from EDM names them (edm:isShownBy, edm:object, edm:hasView; docs/pages.md
     * "Images"): the pages' CSP allows exactly these. Env: comma-separated.
     */
    origins: [] as readonly string[],
    /** Ask binaries for an API key too; off as on the real service (docs/configuration.md). */
    requireKey: false,
  },
  search: {
    /**
     * Worker threads that run the searches, so that an expensive one cannot delay other
     * requests (docs/decisions.md "Bounded searches"); replicas of one copy of the indexes
     * (docs/search-engine.md "One copy per node"). One per core by default, so that a broad
     * search is split over every core (`shards`); each thread past the first costs about
     * 0.1 GB, 60 bytes per document and its caches (docs/configuration.md "Searches on worker
     * threads" says when to set fewer). 0 runs searches on the main thread (only the
     * cooperative time budget then bounds them).
     */
    workers: availableParallelism(),
    /**
     * Workers one search runs on at once, each evaluating the query over its range of the
     * documents, merged exactly (docs/search-engine.md "Shards"), when that many are free and
     * no search waits; at most `workers`, and 1 runs every search on one worker. Default: the
     * machine's cores.
     */
    shards: availableParallelism(),
    /**
     * A search whose parts took less than this many ms of their workers' time in all, the
     * last time it was scattered, runs on one worker next time, until it takes more than
     * twice this there (docs/search-engine.md "Small searches stay on one thread"); 0
     * scatters every search.
     */
    scatterMinMs: 2,
    /**
     * The nice value (0–19) of the search worker threads, so that the lookups get a core
     * first and searches take what is left (docs/configuration.md "Searches on worker
     * threads"); Linux only, where it is a thread's own; 0 leaves them at the process's.
     */
    niceness: 10,
    /** Longest a search may run, in ms; past it the answer is a 503 that says to narrow the query. */
    timeBudgetMs: 3000,
    /** Searches waiting for a free worker; more are refused with a 503 to retry later. */
    queueLength: 256,
    /** Terms, phrases, wildcards and ranges in one query (as Lucene's maxClauseCount). */
    maxClauses: 128,
    /** Different words one wildcard may stand for. */
    maxExpansionsPerTerm: 1000,
    /** Different words all wildcards of one query may stand for together. */
    maxExpansionsPerQuery: 2000,
    /**
     * The languages an item whose `language_fct` names none of the analysed ones (German,
     * English, French, Dutch, Italian, Spanish) is analysed in for search: ISO 639-1 or
     * 639-2 codes (docs/search.md "What matches what"); [] matches such items exactly only.
     * Env: comma-separated.
     */
    languages: ['de', 'en'] as readonly string[],
    /**
     * Longest stretch of index work (applying the store's changes to the search
     * indexes) between two turns of the event loop, in ms, so that loads reach the index without stalling requests
     * (docs/search-engine.md "The store's change feed"); a
     * search's own refresh before its budget starts is bounded by it too.
     */
    indexSliceMs: 20,
    /** How often a caught-up search index looks for new commits, in ms: a record is searchable about this long after its commit. */
    indexPollMs: 100,
    /**
     * Keep the search indexes on disk, so that a start reads them and applies only the
     * changes since instead of rebuilding from the store (docs/search-engine.md "Persistence").
     */
    persist: true,
    /**
     * Directory of the indexes on disk; "" puts it beside the store: <store.path>.search for
     * SQLite, <directory of store.path>/<database>.search for PostgreSQL.
     */
    path: '',
    /** After a change, the indexes are written again within this many seconds (sooner after many changes). */
    indexWriteSeconds: 600,
  },
  metrics: {
    /** Serve GET /metrics (Prometheus' text format; docs/api.md "Health and metrics"). */
    enabled: true,
    /** Ask /metrics for an API key, as the data routes do (off: it holds no key, query or URL). */
    requireKey: false,
  },
  auth: {
    /**
     * Answer every read without an API key, as the newer generation of the real
     * API does (docs/decisions.md "Anonymous reads"). Requests without a key then count per client
     * address in the rate limit (http.rateLimitMax); a key still works and counts
     * under its own name; an unknown or revoked key is still a 403. Off: spec
     * section 5 asks for a key.
     */
    anonymousRead: false,
  },
  oai: {
    /** Serve the OAI-PMH 2.0 provider at /oai (docs/oai-pmh.md): open to harvesters without a key. */
    enabled: true,
    /**
     * The repository part of record identifiers, oai:<repositoryIdentifier>:<item id> (docs/oai-pmh.md
     * "Identifiers"). "" takes the host name the request was sent to; set it so that identifiers
     * stay the same whatever name the server is reached by.
     */
    repositoryIdentifier: '',
    /** Identify's repositoryName. */
    repositoryName: 'heritage-api',
    /** Identify's adminEmail (OAI-PMH asks for at least one). */
    adminEmail: 'oai-admin@example.org',
    /** Records per ListRecords and ListIdentifiers page; sets per ListSets page. */
    pageSize: 250,
    /** Key of the resumption tokens' HMAC; "" uses the random key made with the store (tokens then hold for that store). */
    tokenSecret: '',
    /** OAI-PMH requests per client address per window (harvesters send no key); 0 switches the limit off. */
    rateLimitMax: 1200,
    rateLimitWindowSeconds: 60,
  },
  iiif: {
    /**
     * Members per page of a IIIF Collection (an item's children) and activities per page of
     * IIIF Change Discovery at /iiif/discovery (docs/iiif.md).
     */
    pageSize: 100,
  },
  web: {
    /** Serve the pages for people: /, /search, /item/{id}, /person/{gnd} (docs/pages.md). */
    enabled: true,
    /** Page requests per client address per window (pages need no key); 0 switches their limit off. */
    rateLimitMax: 600,
    rateLimitWindowSeconds: 60,
    /** URLs per sitemap page, at most 50,000 (the sitemaps protocol's limit; docs/sitemaps.md). */
    sitemapPageSize: 50_000,
  },
} as const;

type Widen<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : { -readonly [K in keyof T]: Widen<T[K]> };
export type Config = Readonly<{ readonly [S in keyof typeof DEFAULTS]: Readonly<Widen<(typeof DEFAULTS)[S]>> }>;
export type ConfigOverrides = { [S in keyof Config]?: Partial<Config[S]> };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const ENV_PREFIX = 'HERITAGE_API_';

/**
 * The HERITAGE_API_* variables that are not settings, in one place: every
 * other variable with the prefix must name a setting, or it is refused (a
 * typo must not go unnoticed; docs/cli.md "Mistakes and problems"). docs/configuration.md lists them.
 */
export const OTHER_ENV_VARIABLES: Readonly<Record<string, string>> = {
  HERITAGE_API_CONFIG: 'the JSON config file, when --config is not given',
};

/** Every setting as "section.key". */
const settingPaths = (): string[] =>
  Object.entries(DEFAULTS).flatMap(([section, values]) => Object.keys(values).map((key) => `${section}.${key}`));

/** " Did you mean 'x'?" when a known name is near `name`, else "". */
function didYouMean(name: string, known: readonly string[], quote = (s: string) => `'${s}'`): string {
  const near = closestName(name, known);
  return near === undefined ? '' : ` Did you mean ${quote(near)}?`;
}

/** Snake-case env name of a config path: ("http", "requireAccept") -> HERITAGE_API_HTTP_REQUIRE_ACCEPT. */
export function envName(section: string, key: string): string {
  return `HERITAGE_API_${section}_${key}`.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
}

function coerce(value: string, like: unknown, where: string): string | number | boolean | string[] {
  // A list from one string (an environment variable, a flag): comma-separated.
  if (Array.isArray(like))
    return value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  if (typeof like === 'number') {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n)) throw new UsageError(`${where}: expected a number, got '${value}'.`);
    return n;
  }
  if (typeof like === 'boolean') {
    if (/^(true|1|yes|on)$/i.test(value)) return true;
    if (/^(false|0|no|off)$/i.test(value)) return false;
    throw new UsageError(`${where}: expected true or false, got '${value}'.`);
  }
  return value;
}

function readFile(path: string): ConfigOverrides {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`Cannot read the config file ${path}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text) as ConfigOverrides;
  } catch (e) {
    throw new UsageError(`The config file ${path} is not valid JSON: ${(e as Error).message}`);
  }
}

function fromEnv(env: NodeJS.ProcessEnv): ConfigOverrides {
  const out: Record<string, Record<string, unknown>> = {};
  const known = new Set(Object.keys(OTHER_ENV_VARIABLES));
  for (const [section, values] of Object.entries(DEFAULTS)) {
    for (const [key, like] of Object.entries(values)) {
      const name = envName(section, key);
      known.add(name);
      const raw = env[name];
      if (raw !== undefined) (out[section] ??= {})[key] = coerce(raw, like, name);
    }
  }
  refuseUnknownEnv(env, known);
  return out;
}

/** Names are compared without the common prefix, so that "did you mean" weighs only the part that differs. */
function refuseUnknownEnv(env: NodeJS.ProcessEnv, known: ReadonlySet<string>): void {
  const unknown = Object.keys(env)
    .filter((name) => name.toUpperCase().startsWith(ENV_PREFIX) && !known.has(name))
    .sort();
  if (unknown.length === 0) return;
  const suffixes = [...known].map((name) => name.slice(ENV_PREFIX.length));
  const described = unknown.map((name) => {
    const near = closestName(name.slice(ENV_PREFIX.length), suffixes);
    return near === undefined ? name : `${name} (did you mean ${ENV_PREFIX}${near}?)`;
  });
  throw new UsageError(
    `Unknown environment variable${unknown.length > 1 ? 's' : ''} ${described.join(', ')}: no setting has ${unknown.length > 1 ? 'these names' : 'this name'}. ` +
      `Correct or unset ${unknown.length > 1 ? 'them' : 'it'}; docs/configuration.md lists every setting and its variable.`,
  );
}

/** Merge one layer onto the config, checking every name and type against DEFAULTS. */
function apply(target: Record<string, Record<string, unknown>>, layer: ConfigOverrides, origin: string): void {
  for (const [section, values] of Object.entries(layer ?? {})) {
    const defaults = (DEFAULTS as Record<string, Record<string, unknown>>)[section];
    if (!defaults) {
      throw new UsageError(
        `${origin}: unknown config section '${section}'. Sections: ${Object.keys(DEFAULTS).join(', ')}.${didYouMean(section, Object.keys(DEFAULTS))}`,
      );
    }
    if (typeof values !== 'object' || values === null) throw new UsageError(`${origin}: '${section}' must be an object.`);
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) continue;
      if (!(key in defaults)) {
        throw new UsageError(
          `${origin}: unknown setting '${section}.${key}'. Settings of '${section}': ${Object.keys(defaults).join(', ')}.${didYouMean(`${section}.${key}`, settingPaths())}`,
        );
      }
      const like = defaults[key];
      const v: unknown = typeof value === 'string' && typeof like !== 'string' ? coerce(value, like, `${origin} ${section}.${key}`) : value;
      if (Array.isArray(like) && !(Array.isArray(v) && v.every((x) => typeof x === 'string'))) {
        throw new UsageError(`${origin}: '${section}.${key}' must be a list of strings, got ${JSON.stringify(value)}.`);
      }
      if (typeof v !== typeof like)
        throw new UsageError(`${origin}: '${section}.${key}' must be a ${typeof like}, got ${JSON.stringify(value)}.`);
      target[section]![key] = v;
    }
  }
}

function validate(c: Config): void {
  const port = (name: string, p: number) => {
    if (!Number.isInteger(p) || p < 0 || p > 65535) throw new UsageError(`${name} must be an integer from 0 to 65535, got ${p}.`);
  };
  port('server.port', c.server.port);
  port('server.httpsPort', c.server.httpsPort);
  if ((c.server.tlsCert === '') !== (c.server.tlsKey === '')) {
    throw new UsageError('server.tlsCert and server.tlsKey go together: set both to serve HTTPS, or neither.');
  }
  if (c.store.backend !== 'sqlite' && c.store.backend !== 'postgres') {
    throw new UsageError(`store.backend '${c.store.backend}' is not known. Backends: sqlite, postgres.`);
  }
  if (c.store.path.trim() === '') throw new UsageError('store.path must name a database file.');
  if (c.store.backend === 'postgres' && !/^postgres(?:ql)?:\/\/[^/?#]+\/[^/?#]+/i.test(c.store.url)) {
    throw new UsageError('store.backend postgres needs store.url: postgres://user:password@host:port/database (HERITAGE_API_STORE_URL).');
  }
  for (const replica of c.store.replicaUrls) {
    if (!/^postgres(?:ql)?:\/\/[^/?#]+\/[^/?#]+/i.test(replica)) {
      throw new UsageError(
        `store.replicaUrls: each replica is postgres://user:password@host:port/database (HERITAGE_API_STORE_REPLICA_URLS, comma-separated); one is not.`,
      );
    }
    if (replica === c.store.url)
      throw new UsageError('store.replicaUrls names store.url itself: list the streaming replicas of the primary, not the primary.');
  }
  if (c.store.replicaUrls.length > 0 && c.store.backend !== 'postgres') {
    throw new UsageError('store.replicaUrls needs store.backend postgres: replicas are PostgreSQL streaming replicas of store.url.');
  }
  if (!(Number.isFinite(c.store.maxReplicaLagSeconds) && c.store.maxReplicaLagSeconds > 0)) {
    throw new UsageError(`store.maxReplicaLagSeconds must be a number of seconds above 0, got ${c.store.maxReplicaLagSeconds}.`);
  }
  if (!LOG_LEVELS.includes(c.server.logLevel)) throw new UsageError(`server.logLevel must be one of ${LOG_LEVELS.join(', ')}.`);
  const positive = (name: string, n: number, min = 1) => {
    if (!Number.isInteger(n) || n < min) throw new UsageError(`${name} must be an integer ≥ ${min}, got ${n}.`);
  };
  positive('ingest.batchSize', c.ingest.batchSize);
  positive('ingest.itemBatchSize', c.ingest.itemBatchSize);
  positive('ingest.cacheMegabytes', c.ingest.cacheMegabytes);
  positive('ingest.maxRecordBytes', c.ingest.maxRecordBytes, 1024);
  positive('store.cacheMegabytes', c.store.cacheMegabytes);
  positive('server.workers', c.server.workers, 0);
  positive('store.busyTimeoutSeconds', c.store.busyTimeoutSeconds, 0);
  positive('http.rateLimitMax', c.http.rateLimitMax, 0);
  positive('http.rateLimitWindowSeconds', c.http.rateLimitWindowSeconds);
  positive('http.cacheMaxAgeSeconds', c.http.cacheMaxAgeSeconds, 0);
  positive('http.compressedCacheBytes', c.http.compressedCacheBytes, 0);
  positive('http.packageBodyCacheBytes', c.http.packageBodyCacheBytes, 0);
  positive('http.maxUrlLength', c.http.maxUrlLength, 64);
  positive('search.workers', c.search.workers, 0);
  positive('search.shards', c.search.shards, 1);
  positive('search.scatterMinMs', c.search.scatterMinMs, 0);
  positive('search.timeBudgetMs', c.search.timeBudgetMs);
  if (!Number.isInteger(c.search.niceness) || c.search.niceness < 0 || c.search.niceness > 19) {
    throw new UsageError(`search.niceness must be an integer from 0 to 19 (a nice value), got ${c.search.niceness}.`);
  }
  positive('search.queueLength', c.search.queueLength, 0);
  positive('search.maxClauses', c.search.maxClauses);
  positive('search.maxExpansionsPerTerm', c.search.maxExpansionsPerTerm);
  positive('search.maxExpansionsPerQuery', c.search.maxExpansionsPerQuery);
  for (const code of c.search.languages) {
    if (!/^[a-z]{2,3}$/.test(code))
      throw new UsageError(`search.languages: '${code}' is not a language code; give ISO 639-1 or 639-2 codes such as de, en, fre.`);
  }
  positive('search.indexSliceMs', c.search.indexSliceMs);
  positive('search.indexPollMs', c.search.indexPollMs);
  positive('search.indexWriteSeconds', c.search.indexWriteSeconds);
  positive('web.rateLimitMax', c.web.rateLimitMax, 0);
  positive('web.rateLimitWindowSeconds', c.web.rateLimitWindowSeconds);
  positive('iiif.pageSize', c.iiif.pageSize);
  if (c.iiif.pageSize > 1000) throw new UsageError(`iiif.pageSize must be at most 1000, got ${c.iiif.pageSize}.`);
  if (!Number.isInteger(c.web.sitemapPageSize) || c.web.sitemapPageSize < 1 || c.web.sitemapPageSize > 50_000) {
    throw new UsageError(
      `web.sitemapPageSize must be a whole number from 1 to 50000 (the sitemaps protocol's limit), got ${c.web.sitemapPageSize}.`,
    );
  }
  positive('oai.pageSize', c.oai.pageSize);
  if (c.oai.pageSize > 10_000) throw new UsageError(`oai.pageSize must be at most 10000, got ${c.oai.pageSize}.`);
  positive('oai.rateLimitMax', c.oai.rateLimitMax, 0);
  positive('oai.rateLimitWindowSeconds', c.oai.rateLimitWindowSeconds);
  if (c.oai.repositoryIdentifier !== '' && !/^[A-Za-z0-9][A-Za-z0-9.-]*$/.test(c.oai.repositoryIdentifier)) {
    throw new UsageError(
      `oai.repositoryIdentifier must be a domain name such as heritage.example.org, got '${c.oai.repositoryIdentifier}'.`,
    );
  }
  if (!/^\S+@(\S+\.)+\S+$/.test(c.oai.adminEmail))
    throw new UsageError(`oai.adminEmail must be an e-mail address, got '${c.oai.adminEmail}'.`);
  positive('harvest.retries', c.harvest.retries, 0);
  positive('harvest.maxRetryDelaySeconds', c.harvest.maxRetryDelaySeconds);
  positive('harvest.timeoutSeconds', c.harvest.timeoutSeconds);
  if (c.media.baseUrl !== '' && !/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(c.media.baseUrl)) {
    throw new UsageError(`media.baseUrl must be an http:// or https:// URL without query or fragment, got '${c.media.baseUrl}'.`);
  }
  for (const origin of c.media.origins) {
    // An origin and nothing else: it is written into the pages' CSP as it is.
    if (!/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(origin) && !/^https?:\/\/\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(origin))
      throw new UsageError(
        `media.origins: each entry must be an origin such as https://images.example.org (scheme, host, optional port; no path), got '${origin}'.`,
      );
  }
}

function deepFreeze<T extends object>(o: T): T {
  for (const v of Object.values(o)) if (typeof v === 'object' && v !== null) deepFreeze(v);
  return Object.freeze(o);
}

export interface LoadOptions {
  /** Path of a JSON config file; falls back to HERITAGE_API_CONFIG. */
  file?: string | undefined;
  env?: NodeJS.ProcessEnv;
  /** Values from command-line flags (highest precedence). */
  flags?: ConfigOverrides;
}

/** Build the frozen config: DEFAULTS < file < environment < flags. */
export function loadConfig(options: LoadOptions = {}): Config {
  const env = options.env ?? {};
  const merged = structuredClone(DEFAULTS) as unknown as Record<string, Record<string, unknown>>;
  const file = options.file ?? env.HERITAGE_API_CONFIG;
  if (file) apply(merged, readFile(file), `config file ${file}`);
  apply(merged, fromEnv(env), 'environment');
  if (options.flags) apply(merged, options.flags, 'command line');
  const config = merged as unknown as Config;
  validate(config);
  return deepFreeze(config);
}
