/**
 * `heritage-api demo`: the README's quick start. Loads the real records in
 * fixtures/ (items and persons) into the configured store, creates a fresh
 * demo key, starts the server and prints the home page's URL, then ready curl commands.
 */
import { fileURLToPath } from 'node:url';
import type { Config } from '../../config.js';
import { generateApiKey, hashApiKey } from '../../apiKeys.js';
import { ingestEntities } from '../../ingest/ingestEntities.js';
import { ingestItems } from '../../ingest/ingestItems.js';
import { edmItemOptions } from '../../ingest/items/edmOptions.js';
import type { Store } from '../../store/Store.js';
import type { CliIo } from '../io.js';
import { checkPortFree, serveCommand } from './serve.js';

/** src/cli/commands and dist/cli/commands are both three levels below the package root. */
export const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

/** The providers file for the institutions of the demo's EDM records. */
const DEMO_PROVIDERS = `${FIXTURES}providers.example.json`;

/** A chapter inside a digitised book: it has a parent, so both operations show something. */
const DEMO_ITEM = 'NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR';
/** An issue of the periodical "Combat", loaded from Europeana EDM: issue, year and root. */
const DEMO_EDM_ISSUE = 'TUDVNP6I2PTCLZEABBM34RV6ZVJDFV6H';

/**
 * The real service's binaries (its production server, path `/binary`; docs/configuration.md
 * `media.baseUrl`): the demo's DDB packages name their images there, so a machine with internet
 * shows them at first sight.
 */
export const DDB_BINARY_URL = 'https://api.deutsche-digitale-bibliothek.de/binary';

/**
 * Where the demo's records built from EDM keep their images (docs/configuration.md
 * `media.origins`): MIMO's image server. The HOPE records' handles redirect to hosts of their
 * own, which no list names ahead; their pictures are placeholders that link to the source.
 */
export const DEMO_MEDIA_ORIGINS: readonly string[] = ['http://www.mimo-db.eu'];

export async function demoCommand(config: Config, store: Store, io: CliIo): Promise<void> {
  // A port in use (another demo running, most likely) stops the demo before it changes
  // anything: no load, no key, so a demo already running keeps working as it printed.
  await checkPortFree(config.server.host, config.server.port, '--port');
  if (config.server.tlsCert) await checkPortFree(config.server.host, config.server.httpsPort, '--https-port');
  // Cortex packages as they are, and EDM records (Europeana's and the DDB's form) built into packages,
  // completed by the example providers file written for them (their institutions' kind, so their
  // sector: docs/edm-mapping.md "The providers file") unless the operator named a file of their own.
  const providersFile = config.ingest.providersFile || DEMO_PROVIDERS;
  const items = await ingestItems(store, [`${FIXTURES}items/cortex`, `${FIXTURES}items/edm`], {
    batchSize: config.ingest.itemBatchSize,
    edm: edmItemOptions({ ...config, ingest: { ...config.ingest, providersFile } }),
  });
  io.err(
    `Loaded demo items: ${items.inserted} new, ${items.updated} updated, ${items.unchanged} unchanged, ${items.problems.length} skipped.`,
  );
  const persons = await ingestEntities(store, [`${FIXTURES}persons`], { batchSize: config.ingest.batchSize });
  io.err(
    `Loaded demo persons: ${persons.inserted} new, ${persons.updated} updated, ${persons.unchanged} unchanged, ${persons.problems.length} skipped.`,
  );
  // A key of its own per run, revoked when the demo is stopped (Ctrl-C): another demo on
  // the same store (on another port) never takes away the key this one printed.
  const key = generateApiKey();
  const name = `demo-${Date.now()}-${process.pid}`;
  await store.createKey(name, hashApiKey(key));
  // Media from the real service unless the operator named a source of their own.
  const served: Config =
    config.media.baseUrl === '' && config.media.path === ''
      ? { ...config, media: { ...config.media, baseUrl: DDB_BINARY_URL, origins: [...config.media.origins, ...DEMO_MEDIA_ORIGINS] } }
      : config;
  const running = await serveCommand(served, store, io.err, async () => {
    await store.revokeKey(name);
  });
  const base = running.httpUrl;
  io.out('');
  // The pages for people first: what a visitor opens in a browser.
  if (config.web.enabled) {
    io.out(`Open the collection in a browser: ${base}/`);
    io.out('');
  }
  io.out('Try the API:');
  io.out(`  curl -H 'Accept: application/json' -H 'Authorization: OAuth oauth_consumer_key="${key}"' ${base}/items/${DEMO_ITEM}/parents`);
  io.out(`  curl -H 'Accept: application/xml' '${base}/items/${DEMO_ITEM}/aip?oauth_consumer_key=${key}'`);
  io.out(`  curl -H 'Accept: application/json' '${base}/items/${DEMO_EDM_ISSUE}/parents?oauth_consumer_key=${key}'`);
  io.out(
    `  curl -H 'Accept: application/json' '${base}/entities?query=Schriftsteller&facet=person_occupation_fct&rows=2&oauth_consumer_key=${key}'`,
  );
  io.out(`  curl -H 'Accept: application/json' '${base}/search?query=Goethe&facet=type_fct&rows=2&oauth_consumer_key=${key}'`);
  io.out('');
  io.out('Stop with Ctrl-C.');
}
