/**
 * Calls between the processes of one node (`serve --workers N`,
 * docs/deployment.md "Workers"): the primary and each HTTP worker hold an IpcPeer over their
 * node:cluster IPC channel, and each side answers the calls of the other by
 * kind (searches, rate-limit counts, metrics; src/search/ipcSearch.ts,
 * src/http/clusterWorker.ts, src/http/clusterPrimary.ts).
 *
 * Messages are tagged, so that other users of the channel (node:cluster's
 * own messages) pass by. The channel is opened with `serialization:
 * 'advanced'` (src/cli/commands/serveCluster.ts), so values travel by
 * structured clone as they do to the search threads. A call whose peer goes
 * away is rejected, never left pending.
 */

/** The channel of a cluster worker (`cluster.Worker`) in the primary, or `process` in a worker. */
export interface IpcChannel {
  /** `sent` is called once the message is written (or could not be). */
  send(message: unknown, sent?: (error: Error | null) => void): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
}

const TAG = 'heritage-api';

type Message =
  | { tag: typeof TAG; type: 'call'; id: number; kind: string; payload: unknown }
  | { tag: typeof TAG; type: 'reply'; id: number; ok: true; value: unknown }
  | { tag: typeof TAG; type: 'reply'; id: number; ok: false; message: string; stack: string | undefined }
  | { tag: typeof TAG; type: 'note'; kind: string; payload: unknown };

const isOurs = (m: unknown): m is Message => typeof m === 'object' && m !== null && (m as { tag?: unknown }).tag === TAG;

/** What answers a call: its value, or an error whose message the caller's rejection carries. */
export type Handler = (payload: unknown) => unknown;

export class IpcPeer {
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private readonly handlers = new Map<string, Handler>();
  private readonly listeners = new Map<string, (payload: unknown) => void>();
  private nextId = 0;
  private gone: Error | undefined;
  private readonly onMessage = (m: unknown) => this.receive(m);

  constructor(private readonly channel: IpcChannel) {
    channel.on('message', this.onMessage);
  }

  /** Answers the calls of `kind` from the other side. */
  handle(kind: string, handler: Handler): this {
    this.handlers.set(kind, handler);
    return this;
  }

  /** Hears the one-way notes of `kind` from the other side. */
  listen(kind: string, listener: (payload: unknown) => void): this {
    this.listeners.set(kind, listener);
    return this;
  }

  call<T>(kind: string, payload: unknown): Promise<T> {
    if (this.gone !== undefined) return Promise.reject(this.gone);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve, reject });
      try {
        this.send({ tag: TAG, type: 'call', id, kind, payload });
      } catch (e) {
        this.pending.delete(id);
        reject(e);
      }
    });
  }

  /** A one-way message; `sent` is called once it is written (before a process that sends it exits). */
  note(kind: string, payload: unknown, sent?: () => void): void {
    if (this.gone === undefined) this.send({ tag: TAG, type: 'note', kind, payload }, sent);
    else sent?.();
  }

  /** The other side is gone: every pending and later call is rejected with `reason`. */
  close(reason: Error): void {
    if (this.gone !== undefined) return;
    this.gone = reason;
    this.channel.off('message', this.onMessage);
    for (const call of this.pending.values()) call.reject(reason);
    this.pending.clear();
  }

  /**
   * Throws what cannot be sent (a value that cannot be cloned); a closed channel closes the peer.
   * Always with a callback: without one, Node reports a closed channel as an 'error' event,
   * which would end the process whose peer just exited.
   */
  private send(message: Message, sent?: () => void): void {
    try {
      this.channel.send(message, (error) => {
        if ((error as { code?: unknown } | null)?.code === 'ERR_IPC_CHANNEL_CLOSED') this.close(error!);
        sent?.();
      });
    } catch (e) {
      sent?.();
      if ((e as { code?: unknown }).code !== 'ERR_IPC_CHANNEL_CLOSED') throw e;
      // The peer exited: what is pending can no longer be answered.
      this.close(e as Error);
    }
  }

  private receive(m: unknown): void {
    if (!isOurs(m)) return;
    if (m.type === 'note') {
      this.listeners.get(m.kind)?.(m.payload);
      return;
    }
    if (m.type === 'reply') {
      const call = this.pending.get(m.id);
      if (call === undefined) return;
      this.pending.delete(m.id);
      if (m.ok) call.resolve(m.value);
      else {
        const error = new Error(m.message);
        error.stack = m.stack;
        call.reject(error);
      }
      return;
    }
    void this.answer(m.id, m.kind, m.payload);
  }

  private async answer(id: number, kind: string, payload: unknown): Promise<void> {
    const handler = this.handlers.get(kind);
    try {
      if (handler === undefined) throw new Error(`no handler for the call '${kind}'`);
      const value = await handler(payload);
      // The reply too may throw (a value that cannot be cloned): the caller then gets that error.
      if (this.gone === undefined) this.send({ tag: TAG, type: 'reply', id, ok: true, value });
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      if (this.gone === undefined) this.send({ tag: TAG, type: 'reply', id, ok: false, message: error.message, stack: error.stack });
    }
  }
}
