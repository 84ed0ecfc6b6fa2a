/**
 * `heritage-api serve`: HTTP, and HTTPS at once when a certificate and key
 * are configured (docs/decisions.md "HTTPS").
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { UsageError } from '../../errors.js';
import type { NodeLinks } from '../../http/clusterWorker.js';
import { buildServer, nodeServerPartsOf, requestListenerOf } from '../../http/server.js';
import type { Store } from '../../store/Store.js';

export interface RunningServer {
  app: FastifyInstance;
  httpUrl: string;
  httpsUrl: string | undefined;
  close: () => Promise<void>;
}

function urlOf(scheme: string, address: AddressInfo | string | null): string {
  if (address === null || typeof address === 'string') return `${scheme}://${address}`;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${scheme}://${host}:${address.port}`;
}

/**
 * Why a port could not be opened, as a sentence that says what to do; other
 * errors are returned as they are: no stack trace for what the operator
 * must fix (docs/cli.md "Mistakes and problems").
 */
export function listenError(e: unknown, host: string, port: number, flag: string): unknown {
  const code = (e as { code?: unknown }).code;
  if (code === 'EADDRINUSE') {
    return new UsageError(
      `Port ${port} on ${host} is in use by another program: stop that program, or choose another port with ${flag} PORT (0 picks a free one).`,
    );
  }
  if (code === 'EACCES') {
    return new UsageError(
      `Not allowed to listen on port ${port} on ${host} (ports below 1024 need privileges): choose a port from 1024 up with ${flag} PORT.`,
    );
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new UsageError(
      `Cannot listen on ${host}: it is not an address of this machine. Use --host 127.0.0.1 (this machine only), --host 0.0.0.0 (every address) or one of its own addresses.`,
    );
  }
  return e;
}

/** `node`: in an HTTP worker of `serve --workers N`, what it shares with its node (./serveCluster.ts). */
export async function startServer(config: Config, store: Store, logging = true, node?: NodeLinks): Promise<RunningServer> {
  const app = await buildServer(config, store, { logging, ...(node ? { node } : {}) });
  try {
    await app.listen({ host: config.server.host, port: config.server.port });
  } catch (e) {
    await app.close();
    throw listenError(e, config.server.host, config.server.port, '--port');
  }
  let https: HttpsServer | undefined;
  if (config.server.tlsCert) {
    let cert: Buffer, key: Buffer;
    try {
      cert = readFileSync(config.server.tlsCert);
      key = readFileSync(config.server.tlsKey);
    } catch (e) {
      await app.close();
      throw new UsageError(`Cannot read the TLS certificate or key: ${(e as Error).message}`);
    }
    // The same application answers on both ports: Fastify's router serves the HTTPS server too.
    const parts = nodeServerPartsOf(app);
    https = createHttpsServer({ cert, key, ...parts.options }, requestListenerOf(app));
    parts.attach(https);
    try {
      await new Promise<void>((resolve, reject) => {
        https!.once('error', reject).listen(config.server.httpsPort, config.server.host, () => resolve());
      });
    } catch (e) {
      await app.close();
      throw listenError(e, config.server.host, config.server.httpsPort, '--https-port');
    }
  }
  return {
    app,
    httpUrl: urlOf('http', app.server.address()),
    httpsUrl: https ? urlOf('https', https.address()) : undefined,
    close: async () => {
      if (https) await new Promise<void>((resolve) => https.close(() => resolve()));
      await app.close();
    },
  };
}

/**
 * Fails as startServer would on a port that cannot be opened, without starting anything:
 * for a command that must know before it changes the store (the demo). Port 0 always opens.
 */
export async function checkPortFree(host: string, port: number, flag: string): Promise<void> {
  if (port === 0) return;
  const probe = createNetServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject).listen({ host, port, exclusive: true }, () => resolve());
    });
  } catch (e) {
    throw listenError(e, host, port, flag);
  } finally {
    await new Promise<void>((resolve) => (probe.listening ? probe.close(() => resolve()) : resolve()));
  }
}

/**
 * Runs until SIGINT/SIGTERM, then closes the servers and the store cleanly.
 * `beforeStoreCloses` runs once the servers are closed (the demo revokes its key there).
 */
export async function serveCommand(
  config: Config,
  store: Store,
  log: (line: string) => void,
  beforeStoreCloses?: () => Promise<void>,
): Promise<RunningServer> {
  const running = await startServer(config, store);
  log(
    `heritage-api listening on ${running.httpUrl}${running.httpsUrl ? ` and ${running.httpsUrl}` : ''} (${await store.countItems()} items)`,
  );
  const stop = async () => {
    await running.close();
    await beforeStoreCloses?.().catch((e: unknown) => log(`heritage-api: ${(e as Error).message}`));
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
  return running;
}
