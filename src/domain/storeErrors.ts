/**
 * A store that cannot answer now: its server unreachable, or its file locked by another
 * process. The backends raise these (src/store/), the search passes them on from its
 * threads and processes (src/search/), and the HTTP layer answers them with the catalog's
 * 503 StoreUnavailableException (src/http/errorMapping.ts, by its code). Here, below both
 * store and search, as the contract between them is (./searchFeed.ts; docs/architecture.md
 * "Layers").
 */
import type { ErrorCode } from '../errorCodes.js';
import { UsageError } from '../errors.js';

/**
 * The store's server (or, with replicas, every server reads may go to) cannot be reached.
 * In a request it is the catalog's 503 storeUnavailable (src/http/errorMapping.ts): the
 * client may retry; a command prints this message, which names the server.
 */
export class StoreUnreachableError extends UsageError {
  readonly code = 'store.unreachable' satisfies ErrorCode;
  /** `message`: the backend's own sentence, naming the server (never its password) and what to check. */
  constructor(
    readonly location: string,
    message: string,
  ) {
    super(message);
  }
}

/** Another process held the store's write lock for longer than the command would wait. */
export class StoreBusyError extends UsageError {
  readonly code = 'store.busy' satisfies ErrorCode;
  constructor(
    readonly location: string,
    readonly waitedSeconds: number,
  ) {
    super(
      `The store ${location} is locked by another process writing to it (an ingest, a harvest, a keys or items command), ` +
        `and it did not finish within ${waitedSeconds} s (store.busyTimeoutSeconds): run this again once that process has finished.`,
    );
  }
}

/**
 * A store error as plain data, so that it crosses a worker thread or a process (the search
 * runs in threads and, with several HTTP workers, in another process: src/search/searchPool.ts,
 * src/search/ipcSearch.ts) and is still the 503 of a store that cannot answer on the other side,
 * not an internal error.
 */
export type StoreErrorParts =
  { kind: 'unreachable'; location: string; message: string } | { kind: 'busy'; location: string; waitedSeconds: number };

/** `e` as StoreErrorParts when it is a store that cannot answer now; undefined otherwise. */
export function storeErrorParts(e: unknown): StoreErrorParts | undefined {
  if (e instanceof StoreUnreachableError) return { kind: 'unreachable', location: e.location, message: e.message };
  if (e instanceof StoreBusyError) return { kind: 'busy', location: e.location, waitedSeconds: e.waitedSeconds };
  return undefined;
}

/** The error StoreErrorParts were made from, with its message. */
export function reviveStoreError(parts: StoreErrorParts): StoreUnreachableError | StoreBusyError {
  return parts.kind === 'unreachable'
    ? new StoreUnreachableError(parts.location, parts.message)
    : new StoreBusyError(parts.location, parts.waitedSeconds);
}
