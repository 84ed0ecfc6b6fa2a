/**
 * One config: defaults < file < environment < flags, validated and frozen
 * (docs/configuration.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULTS, envName, loadConfig } from '../../src/config.js';
import { tempDir } from '../helpers/tempDir.js';
import { searchLanguages } from '../../src/search/searchPool.js';

const file = (content: unknown) => {
  const path = join(tempDir('cfg'), 'config.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};

test('without anything, the config is DEFAULTS', () => {
  assert.deepEqual(loadConfig(), DEFAULTS);
});

test('file < environment < flags, each overriding only what it names', () => {
  const path = file({ server: { port: 9000, host: '0.0.0.0' }, http: { requireAccept: false } });
  const env = { HERITAGE_API_SERVER_PORT: '9100', HERITAGE_API_HTTP_CORS_ORIGIN: 'https://a.example' };
  const config = loadConfig({ file: path, env, flags: { server: { port: 9200 } } });
  assert.equal(config.server.port, 9200);
  assert.equal(config.server.host, '0.0.0.0');
  assert.equal(config.http.requireAccept, false);
  assert.equal(config.http.corsOrigin, 'https://a.example');
  assert.equal(config.store.path, DEFAULTS.store.path);
  // The file can also be named by the environment.
  assert.equal(loadConfig({ env: { HERITAGE_API_CONFIG: path } }).server.port, 9000);
});

test('env names are the setting path in upper snake case', () => {
  assert.equal(envName('http', 'requireAccept'), 'HERITAGE_API_HTTP_REQUIRE_ACCEPT');
  assert.equal(envName('store', 'path'), 'HERITAGE_API_STORE_PATH');
  assert.equal(loadConfig({ env: { HERITAGE_API_HTTP_REQUIRE_ACCEPT: 'false' } }).http.requireAccept, false);
});

test('the config is frozen', () => {
  const config = loadConfig();
  assert.throws(() => {
    (config.server as { port: number }).port = 1;
  }, TypeError);
});

test('store.replicaUrls: a JSON list in the file, comma-separated in the environment; store.maxReplicaLagSeconds may be a fraction', () => {
  const postgres = { HERITAGE_API_STORE_BACKEND: 'postgres', HERITAGE_API_STORE_URL: 'postgres://p:5432/db' };
  assert.deepEqual(loadConfig().store.replicaUrls, []);
  assert.equal(loadConfig().store.maxReplicaLagSeconds, 5);
  const fromEnv = loadConfig({
    env: {
      ...postgres,
      HERITAGE_API_STORE_REPLICA_URLS: ' postgres://r1:5432/db, postgres://r2/db ,',
      HERITAGE_API_STORE_MAX_REPLICA_LAG_SECONDS: '0.5',
    },
  });
  assert.deepEqual(fromEnv.store.replicaUrls, ['postgres://r1:5432/db', 'postgres://r2/db']);
  assert.equal(fromEnv.store.maxReplicaLagSeconds, 0.5);
  assert.ok(Object.isFrozen(fromEnv.store.replicaUrls));
  const fromFile = loadConfig({ env: postgres, file: file({ store: { replicaUrls: ['postgres://r1/db'] } }) });
  assert.deepEqual(fromFile.store.replicaUrls, ['postgres://r1/db']);
});

test('bad values are refused with a message that says what to fix', () => {
  const cases: Array<[Parameters<typeof loadConfig>[0], string]> = [
    [{ env: { HERITAGE_API_SERVER_PORT: 'eighty' } }, "HERITAGE_API_SERVER_PORT: expected a number, got 'eighty'."],
    [{ env: { HERITAGE_API_HTTP_REQUIRE_ACCEPT: 'maybe' } }, "HERITAGE_API_HTTP_REQUIRE_ACCEPT: expected true or false, got 'maybe'."],
    [{ flags: { server: { port: 70000 } } }, 'server.port must be an integer from 0 to 65535, got 70000.'],
    [
      { file: file({ sever: {} }) },
      "unknown config section 'sever'. Sections: store, server, http, ingest, harvest, media, search, metrics, auth, oai, iiif, web.",
    ],
    [
      { env: { HERITAGE_API_MEDIA_BASE_URL: 'ftp://media.example.org/b' } },
      "media.baseUrl must be an http:// or https:// URL without query or fragment, got 'ftp://media.example.org/b'.",
    ],
    [{ flags: { media: { baseUrl: 'https://media.example.org/b?x=1' } } }, 'media.baseUrl must be an http:// or https:// URL'],
    [{ flags: { harvest: { timeoutSeconds: 0 } } }, 'harvest.timeoutSeconds must be an integer ≥ 1, got 0.'],
    [{ flags: { harvest: { retries: -1 } } }, 'harvest.retries must be an integer ≥ 0, got -1.'],
    [
      { file: file({ server: { prot: 1 } }) },
      "unknown setting 'server.prot'. Settings of 'server': host, port, httpsPort, tlsCert, tlsKey, trustProxy, logLevel, workers.",
    ],
    [{ file: file({ server: { port: true } }) }, "'server.port' must be a number, got true."],
    [{ file: file('{ not json') }, 'is not valid JSON'],
    [{ file: '/no/such/config.json' }, 'Cannot read the config file /no/such/config.json'],
    [{ flags: { server: { tlsCert: 'cert.pem' } } }, 'server.tlsCert and server.tlsKey go together'],
    [{ flags: { store: { backend: 'mysql' } } }, "store.backend 'mysql' is not known. Backends: sqlite, postgres."],
    [
      { env: { HERITAGE_API_STORE_BACKEND: 'postgres' } },
      'store.backend postgres needs store.url: postgres://user:password@host:port/database',
    ],
    [{ env: { HERITAGE_API_STORE_BACKEND: 'postgres', HERITAGE_API_STORE_URL: 'mysql://h/db' } }, 'store.backend postgres needs store.url'],
    [{ flags: { ingest: { batchSize: 0 } } }, 'ingest.batchSize must be an integer ≥ 1, got 0.'],
    [{ flags: { search: { workers: -1 } } }, 'search.workers must be an integer ≥ 0, got -1.'],
    [{ env: { HERITAGE_API_SERVER_WORKERS: '-2' } }, 'server.workers must be an integer ≥ 0, got -2.'],
    [{ flags: { search: { timeBudgetMs: 0 } } }, 'search.timeBudgetMs must be an integer ≥ 1, got 0.'],
    [{ env: { HERITAGE_API_SEARCH_NICENESS: '20' } }, 'search.niceness must be an integer from 0 to 19 (a nice value), got 20.'],
    [{ flags: { search: { niceness: -1 } } }, 'search.niceness must be an integer from 0 to 19 (a nice value), got -1.'],
    [{ env: { HERITAGE_API_SEARCH_MAX_CLAUSES: '0.5' } }, 'search.maxClauses must be an integer ≥ 1, got 0.5.'],
    [{ flags: { web: { rateLimitMax: -1 } } }, 'web.rateLimitMax must be an integer ≥ 0, got -1.'],
    [{ flags: { oai: { pageSize: 0 } } }, 'oai.pageSize must be an integer ≥ 1, got 0.'],
    [{ flags: { oai: { pageSize: 20_000 } } }, 'oai.pageSize must be at most 10000, got 20000.'],
    [{ flags: { iiif: { pageSize: 0 } } }, 'iiif.pageSize must be an integer ≥ 1, got 0.'],
    [{ flags: { iiif: { pageSize: 1001 } } }, 'iiif.pageSize must be at most 1000, got 1001.'],
    [
      { env: { HERITAGE_API_OAI_REPOSITORY_IDENTIFIER: 'not a host' } },
      "oai.repositoryIdentifier must be a domain name such as heritage.example.org, got 'not a host'.",
    ],
    [{ flags: { oai: { adminEmail: 'nobody' } } }, "oai.adminEmail must be an e-mail address, got 'nobody'."],
    [{ env: { HERITAGE_API_WEB_ENABLED: 'maybe' } }, "HERITAGE_API_WEB_ENABLED: expected true or false, got 'maybe'."],
    [{ env: { HERITAGE_API_STORE_REPLICA_URLS: 'postgres://r/db' } }, 'store.replicaUrls needs store.backend postgres'],
    [
      {
        env: {
          HERITAGE_API_STORE_BACKEND: 'postgres',
          HERITAGE_API_STORE_URL: 'postgres://p/db',
          HERITAGE_API_STORE_REPLICA_URLS: 'postgres://r/db,http://u:secret@r2',
        },
      },
      'store.replicaUrls: each replica is postgres://user:password@host:port/database (HERITAGE_API_STORE_REPLICA_URLS, comma-separated); one is not.',
    ],
    [
      {
        env: {
          HERITAGE_API_STORE_BACKEND: 'postgres',
          HERITAGE_API_STORE_URL: 'postgres://p/db',
          HERITAGE_API_STORE_REPLICA_URLS: 'postgres://p/db',
        },
      },
      'store.replicaUrls names store.url itself',
    ],
    [{ file: file({ store: { replicaUrls: [1] } }) }, "'store.replicaUrls' must be a list of strings, got [1]."],
    [{ flags: { store: { maxReplicaLagSeconds: 0 } } }, 'store.maxReplicaLagSeconds must be a number of seconds above 0, got 0.'],
  ];
  for (const [options, message] of cases) {
    assert.throws(
      () => loadConfig(options),
      (e: Error) => e.name === 'UsageError' && e.message.includes(message),
      message,
    );
  }
});

test('search.languages: codes in a JSON list or comma-separated; a code the search does not analyse is refused at start', () => {
  assert.deepEqual(loadConfig().search.languages, ['de', 'en']);
  assert.deepEqual(loadConfig({ env: { HERITAGE_API_SEARCH_LANGUAGES: 'fre,dut' } }).search.languages, ['fre', 'dut']);
  assert.deepEqual(loadConfig({ file: file({ search: { languages: [] } }) }).search.languages, []);
  assert.throws(
    () => loadConfig({ env: { HERITAGE_API_SEARCH_LANGUAGES: 'German' } }),
    (e: Error) => e.name === 'UsageError' && e.message.includes("search.languages: 'German' is not a language code"),
  );
  assert.deepEqual(searchLanguages(['ger', 'it']), ['ger', 'it']);
  assert.throws(
    () => searchLanguages(['de', 'lat']),
    (e: Error) =>
      e.name === 'UsageError' &&
      e.message.startsWith("search.languages: 'lat' is not a language the search analyses; use de, en, fr, nl, it, es"),
  );
});

test('an unknown HERITAGE_API_* variable is refused with the nearest setting; the ones that are not settings are allowed', () => {
  const refused = (env: NodeJS.ProcessEnv) => {
    try {
      loadConfig({ env });
    } catch (e) {
      assert.equal((e as Error).name, 'UsageError');
      return (e as Error).message;
    }
    assert.fail(`accepted ${JSON.stringify(env)}`);
  };
  assert.equal(
    refused({ HERITAGE_API_HTTP_REQUIRE_ACEPT: 'false' }),
    'Unknown environment variable HERITAGE_API_HTTP_REQUIRE_ACEPT (did you mean HERITAGE_API_HTTP_REQUIRE_ACCEPT?): no setting has this name. ' +
      'Correct or unset it; docs/configuration.md lists every setting and its variable.',
  );
  // Lower case is not the variable either (names are case-sensitive), but it is plainly meant.
  assert.equal(
    refused({ heritage_api_server_port: '9000', HERITAGE_API_NOTHING_LIKE_ANY_SETTING_AT_ALL: '1', PATH: '/bin' }),
    'Unknown environment variables HERITAGE_API_NOTHING_LIKE_ANY_SETTING_AT_ALL, heritage_api_server_port (did you mean HERITAGE_API_SERVER_PORT?): ' +
      'no setting has these names. Correct or unset them; docs/configuration.md lists every setting and its variable.',
  );
  const path = file({ server: { port: 9001 } });
  assert.equal(loadConfig({ env: { HERITAGE_API_CONFIG: path, OTHER_TOOL_SETTING: 'x' } }).server.port, 9001);
});

test('an unknown setting or section in the config file names the nearest setting', () => {
  const message = (content: unknown) => {
    const path = file(content);
    try {
      loadConfig({ file: path });
    } catch (e) {
      return (e as Error).message.replace(path, 'FILE');
    }
    assert.fail('accepted');
  };
  assert.equal(
    message({ server: { prot: 9000 } }),
    "config file FILE: unknown setting 'server.prot'. Settings of 'server': host, port, httpsPort, tlsCert, tlsKey, trustProxy, logLevel, workers. Did you mean 'server.port'?",
  );
  // A setting put into the wrong section is found in its own.
  assert.equal(
    message({ server: { requireAccept: false } }),
    "config file FILE: unknown setting 'server.requireAccept'. Settings of 'server': host, port, httpsPort, tlsCert, tlsKey, trustProxy, logLevel, workers. Did you mean 'http.requireAccept'?",
  );
  assert.equal(
    message({ htp: {} }),
    "config file FILE: unknown config section 'htp'. Sections: store, server, http, ingest, harvest, media, search, metrics, auth, oai, iiif, web. Did you mean 'http'?",
  );
});
