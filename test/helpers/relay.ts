/**
 * A TCP relay from a local port to a server (PostgreSQL, in the tests), which can be cut
 * (every connection closed, none accepted: a network gone, a server restarting) and
 * opened again on the same port, as the store's own server would come back.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export class Relay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly to: URL) {}

  /** Whether the relay accepts and forwards connections now. */
  get open(): boolean {
    return this.server !== undefined;
  }

  /** `to` with the relay's host and port in its place: the URL a client of the relay uses. */
  url(): string {
    const url = new URL(this.to);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  /** Listens (on the port of the last opening, or a free one the first time) and forwards each connection. */
  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(Number(this.to.port), this.to.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      // Either side's end ends the other: a half-open pair would hang its client.
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Closes every connection at once and accepts none until start(). */
  async cut(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    this.server = undefined;
    const closed = new Promise((resolve) => server.close(resolve));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}
