#!/usr/bin/env node
/**
 * The heritage-api command line. Each command builds the config
 * (file < environment < flags, src/config.ts), opens the store, and runs.
 * docs/cli.md describes every command and exit code.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { loadConfig, type Config, type ConfigOverrides } from '../config.js';
import { ApiError, UsageError } from '../errors.js';
import { openStore } from '../store/openStore.js';
import { discardStore, isEmptyStore, storeToBeCreated } from '../store/sqlite/discardStore.js';
import { verifyCommand } from './commands/verify.js';
import { StoreNotFoundError } from '../store/storeErrors.js';
import type { Store } from '../store/Store.js';
import { demoCommand } from './commands/demo.js';
import { exportCommand, type ExportFlags } from './commands/export.js';
import { harvestCommand, type HarvestFlags } from './commands/harvest.js';
import { ingestEntitiesCommand, ingestItemsCommand } from './commands/ingest.js';
import { blockItem, DEFAULT_LIST_LIMIT, listItems, shellWord, showItem, unblockItem } from './commands/items.js';
import { indexCopy, indexRebuild, indexStatus, indexVerify } from './commands/searchIndex.js';
import { copyCommand } from './commands/copy.js';
import { createKey, listKeys, revokeKey } from './commands/keys.js';
import { migrateCommand } from './commands/migrate.js';
import { serveNodeCommand } from './commands/serveCluster.js';
import { EXIT, processIo, type CliIo } from './io.js';

/** src/cli and dist/cli are both two levels below the package root: found from here, never from the working directory. */
const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

interface GlobalFlags {
  config?: string;
  db?: string;
  logLevel?: string;
}

/** A commander argument parser for a count. */
function positiveInteger(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1)
      throw new InvalidArgumentError(`${flag} takes a whole number from 1 up, not '${value}'.`);
    return n;
  };
}

/** A commander argument parser for a count from 0. */
function count(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n))
      throw new InvalidArgumentError(`${flag} takes a whole number from 0 up, not '${value}'.`);
    return n;
  };
}

/** Flags of the commands that map onto config keys (serve's, and --providers). */
function overrides(global: GlobalFlags, serve: Record<string, unknown> = {}): ConfigOverrides {
  const server: Record<string, unknown> = {};
  if (global.logLevel) server.logLevel = global.logLevel;
  for (const k of ['port', 'host', 'httpsPort', 'tlsCert', 'tlsKey', 'workers'] as const) if (serve[k] !== undefined) server[k] = serve[k];
  return {
    store: global.db ? { path: global.db } : {},
    ingest: typeof serve.providers === 'string' ? { providersFile: serve.providers } : {},
    server,
    http: serve.allowMissingAccept ? { requireAccept: false } : {},
  };
}

/**
 * Runs the CLI with the given arguments (without "node" and the script).
 * Returns the exit code; long-running commands (serve, demo) resolve once
 * the server is listening and keep the process alive.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command('heritage-api')
    .description('A DDB-compatible cultural-heritage metadata API.')
    .version(PACKAGE_VERSION, '-V, --version', 'print the version of heritage-api')
    .option('-c, --config <file>', 'JSON config file (see docs/configuration.md)')
    .option('--db <path>', 'SQLite database file (store.path)')
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });

  /**
   * Loads the config, opens the store and runs. `create`: only loads may
   * create a store; every other command given a path where there is none
   * says so instead of leaving an empty one behind.
   */
  const withStore = async (
    flags: Record<string, unknown>,
    run: (config: Config, store: Store) => Promise<number> | number,
    { keepOpen = false, purpose = 'serve', create = false }: { keepOpen?: boolean; purpose?: 'serve' | 'load'; create?: boolean } = {},
  ) => {
    const global = program.opts<GlobalFlags>();
    const config = loadConfig({ file: global.config, env, flags: overrides(global, flags) });
    // A store this command creates is removed again if the command fails before writing to it.
    const created = create && config.store.backend === 'sqlite' ? storeToBeCreated(config.store.path) : null;
    const store = await openStore(config, purpose, { create, notice: (line) => io.err(line) });
    let running = false;
    let failed = true;
    try {
      exitCode = await run(config, store);
      failed = exitCode === EXIT.failed;
      running = keepOpen;
    } finally {
      if (!running) {
        const discard = created !== null && failed && (await isEmptyStore(store));
        await store.close();
        if (discard) discardStore(created);
      }
    }
  };

  /** The start of a command line to suggest, with the --config and --db of this one, so it can be pasted as it is. */
  const cliPrefix = () => {
    const global = program.opts<GlobalFlags>();
    const words = ['heritage-api'];
    if (global.config) words.push('--config', shellWord(global.config));
    if (global.db) words.push('--db', shellWord(global.db));
    return words.join(' ');
  };

  /**
   * Runs a load that Ctrl-C stops cleanly: it keeps what it read and says so
   * (docs/cli.md). A second Ctrl-C stops at once; the batch being written is
   * then not kept, and everything before it is.
   */
  const interruptible = async (run: (signal: AbortSignal) => Promise<number>): Promise<number> => {
    const stop = new AbortController();
    const onSigint = () => {
      io.err('Stopping after the records read so far (Ctrl-C again stops at once)...');
      stop.abort();
    };
    process.once('SIGINT', onSigint);
    try {
      return await run(stop.signal);
    } finally {
      process.off('SIGINT', onSigint);
    }
  };

  const LOAD = { purpose: 'load', create: true } as const;
  const ingest = program.command('ingest').description('Load records into the store');
  ingest
    .command('items')
    .description(
      'Load items: cortex XML or package JSON packages, or EDM RDF/XML records (also saved OAI-PMH responses); files, directories, or - for stdin',
    )
    .argument('<paths...>', 'files, directories or -')
    .option('--providers <file>', 'JSON file of provider facts for packages built from EDM (ingest.providersFile)')
    .action((paths: string[], flags: Record<string, unknown>) =>
      withStore(
        flags,
        (config, store) => interruptible((signal) => ingestItemsCommand(config, store, paths, io, { signal, cli: cliPrefix() })),
        LOAD,
      ),
    );

  program
    .command('harvest')
    .description(
      'Harvest EDM records from an OAI-PMH endpoint (ListRecords) into the store; the next run is incremental, a stopped run resumes',
    )
    .argument('<url>', 'base URL of the OAI-PMH endpoint')
    .option('--metadata-prefix <prefix>', 'metadata format to ask for', 'edm')
    .option('--set <setSpec>', 'harvest only this set')
    .option(
      '--from <datestamp>',
      'records changed from this date (YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ); default: where the last complete run ended',
    )
    .option('--providers <file>', 'JSON file of provider facts (ingest.providersFile)')
    .action((url: string, flags: HarvestFlags & Record<string, unknown>) =>
      withStore(flags, (config, store) => interruptible((signal) => harvestCommand(config, store, url, flags, io, signal)), LOAD),
    );

  ingest
    .command('entities')
    .description('Load persons: EntityFacts or lobid-gnd JSON-LD, or entity lines of this service; files, directories or -')
    .argument('<paths...>', 'files, directories or -')
    .action((paths: string[]) =>
      withStore(
        {},
        (config, store) => interruptible((signal) => ingestEntitiesCommand(config, store, paths, io, { signal, cli: cliPrefix() })),
        LOAD,
      ),
    );

  const serveOptions = (cmd: Command) =>
    cmd
      .addOption(new Option('-p, --port <port>', 'HTTP port').argParser(Number))
      .option('--host <host>', 'address to listen on')
      .addOption(new Option('--https-port <port>', 'HTTPS port (with --tls-cert and --tls-key)').argParser(Number))
      .option('--tls-cert <file>', 'PEM certificate for HTTPS')
      .option('--tls-key <file>', 'PEM private key for HTTPS')
      .option('--allow-missing-accept', 'answer requests without Accept with JSON instead of 406');
  serveOptions(program.command('serve').description('Start the API server'))
    .addOption(
      new Option('--workers <n>', 'HTTP worker processes on the one port (server.workers): 0 one per core, 1 a single process').argParser(
        count('--workers'),
      ),
    )
    .action((flags: Record<string, unknown>) =>
      withStore(
        flags,
        async (config, store) => {
          await serveNodeCommand(config, store, io.err, argv);
          return EXIT.ok;
        },
        { keepOpen: true },
      ),
    );
  serveOptions(program.command('demo').description('Load the demo records, create a demo key, start the server')).action(
    (flags: Record<string, unknown>) =>
      withStore(
        flags,
        async (config, store) => {
          await demoCommand(config, store, io);
          return EXIT.ok;
        },
        { keepOpen: true, create: true },
      ),
  );

  const keys = program.command('keys').description('Manage API keys');
  keys
    .command('create')
    .description('Create a key; it is printed once')
    .requiredOption('--name <name>', 'who the key is for')
    .action((o: { name: string }) => withStore({}, (_c, store) => createKey(store, o.name, io)));
  keys
    .command('list')
    .description('List keys (never the keys themselves)')
    .action(() => withStore({}, (_c, store) => listKeys(store, io)));
  keys
    .command('revoke')
    .description('Revoke a key by name')
    .argument('<name>')
    .action((name: string) => withStore({}, (_c, store) => revokeKey(store, name, io)));

  program
    .command('migrate')
    .description("Bring a store's schema to this version's (PostgreSQL stores must be migrated before use; docs/deployment.md)")
    .option('--store <store>', 'postgres://user:password@host:port/database, or a SQLite file; default: the configured store')
    .action(async (o: { store?: string }) => {
      exitCode = await migrateCommand(o.store ?? configuredStore(), io);
    });
  program
    .command('copy')
    .description(
      'Copy a store into a new, empty one of either backend (SQLite file or postgres:// URL), checked by counts and digests per table',
    )
    .requiredOption('--from <store>', 'the store to copy: a SQLite file or postgres://…')
    .requiredOption('--to <store>', 'the new store: a SQLite file or postgres://… (migrated and empty)')
    .action(async (o: { from: string; to: string }) => {
      exitCode = await copyCommand(o.from, o.to, io);
    });

  program
    .command('verify')
    .description(
      "Check the store: the database's own check, every package against its digest and stored fields, the hierarchy for cycles (docs/cli.md)",
    )
    .action(async () => {
      const global = program.opts<GlobalFlags>();
      exitCode = await verifyCommand(loadConfig({ file: global.config, env, flags: overrides(global) }), io);
    });

  /** The store of the config (--config, environment, --db): its URL on PostgreSQL, else its file. */
  const configuredStore = () => {
    const global = program.opts<GlobalFlags>();
    const config = loadConfig({ file: global.config, env, flags: overrides(global) });
    return config.store.backend === 'postgres' ? config.store.url : config.store.path;
  };

  program
    .command('export')
    .description(
      'Write every hit of a search as JSON Lines (one result doc a line, in id order), to a file or stdout; --resume goes on after the last line (docs/export.md)',
    )
    .argument('<kind>', 'items or persons')
    .option('--query <query>', 'what to export, in the query syntax of the search (default *:*, everything)')
    .option(
      '--fq <field:value>',
      'only hits with this facet value (repeatable: values of one facet OR-ed, facets AND-ed)',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option('--out <file>', 'write to this file instead of stdout')
    .option('--resume', 'continue the --out file after its last complete line')
    .action((kind: string, flags: ExportFlags) =>
      withStore({}, (config, store) =>
        interruptible((signal) => exportCommand(config, store, kind, flags, io, { signal, cli: cliPrefix() })),
      ),
    );

  const items = program.command('items').description('Manage items');
  items
    .command('block')
    .description('Block an item: it then answers 403 with the reason')
    .argument('<id>')
    .requiredOption('--reason <text>', 'shown to clients in the 403 message')
    .action((id: string, o: { reason: string }) => withStore({}, (_c, store) => blockItem(store, id, o.reason, io)));
  items
    .command('unblock')
    .description('Unblock an item')
    .argument('<id>')
    .action((id: string) => withStore({}, (_c, store) => unblockItem(store, id, io)));
  items
    .command('list')
    .description('List the ids of the stored items in id order, a page at a time')
    .addOption(new Option('--limit <n>', 'at most this many ids').default(DEFAULT_LIST_LIMIT).argParser(positiveInteger('--limit')))
    .option('--after <id>', 'the ids after this one (the last of the page before)')
    .action((o: { limit: number; after?: string }) => withStore({}, (_c, store) => listItems(store, o, cliPrefix(), io)));
  items
    .command('show')
    .description('Print the package of an item, as GET /items/{id}/aip answers it')
    .argument('<id>')
    .addOption(new Option('--format <format>', 'json or xml (the stored cortex XML)').choices(['json', 'xml']).default('json'))
    .action((id: string, o: { format: 'json' | 'xml' }) => withStore({}, (_c, store) => showItem(store, id, o.format, cliPrefix(), io)));

  const index = program.command('index').description('The search indexes on disk (search.path)');
  index
    .command('status')
    .description('Say where the search indexes are kept, which generation a start reads and what it holds')
    .action(() => withStore({}, (config, store) => indexStatus(config, store, io)));
  index
    .command('verify')
    .description('Check every section of the newest generation against its checksum and read both indexes back')
    .action(() => withStore({}, (config, store) => indexVerify(config, store, io)));
  index
    .command('rebuild')
    .description('Build the search indexes from the store now and write them as a new generation')
    .action(() => withStore({}, (config, store) => indexRebuild(config, store, io)));
  index
    .command('copy')
    .description('Copy the newest generation to another directory while the server serves, to start another node from it')
    .argument('<to-dir>', "an empty or new directory: the other node's search.path")
    .action((to: string) => withStore({}, (config, store) => indexCopy(config, store, to, io)));

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.failed;
    if (e instanceof StoreNotFoundError) {
      io.err(
        `heritage-api: There is no store at ${e.location}. Check --db (store.path), or create the store by loading data: ` +
          "'heritage-api ingest items PATH...', 'ingest entities PATH...' or 'harvest URL'.",
      );
      return EXIT.failed;
    }
    if (e instanceof UsageError) {
      io.err(`heritage-api: ${e.message}`);
      return EXIT.failed;
    }
    // A catalog error (src/errors.ts) says what to do already: the primary store unreachable for a write.
    if (e instanceof ApiError) {
      io.err(`heritage-api: ${e.message} (${e.errorName})`);
      return EXIT.failed;
    }
    throw e;
  }
  return exitCode;
}

// Run when executed directly (not when imported by tests).
// process.argv[1] may be the npm bin symlink, so compare real paths.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Output piped into a reader that stopped (`items list | head`) is not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(process.exitCode ?? EXIT.ok);
  });
  runCli(process.argv.slice(2)).then(
    (code) => {
      // A stopped load may leave a quiet standard input open, which would keep the process alive.
      if (code === EXIT.interrupted) process.exit(code);
      if (code !== EXIT.ok) process.exitCode = code;
    },
    (e: unknown) => {
      // Only bugs get here: what an operator must fix is a UsageError, said in a sentence by runCli.
      process.stderr.write(`heritage-api: ${(e as Error).stack ?? String(e)}\n`);
      process.stderr.write('heritage-api: this is a bug in heritage-api; please report it with the lines above.\n');
      process.exitCode = EXIT.failed;
    },
  );
}
