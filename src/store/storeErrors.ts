/**
 * What can go wrong with a store that the operator, not the code, must fix.
 * Backends translate their own errors into these, so the CLI can say what to
 * do without knowing the backend (docs/cli.md "Mistakes and problems").
 */
import { UsageError } from '../errors.js';

/** The store is not there, and the command may not create one (only loads do). */
export class StoreNotFoundError extends UsageError {
  constructor(readonly location: string) {
    super(`There is no store at ${location}.`);
  }
}

/**
 * The store's server (or, with replicas, every server reads may go to) cannot be reached.
 * In a request it is the catalog's 503 storeUnavailable (src/http/errorHandler.ts): the
 * client may retry; a command prints this message, which names the server.
 */
export class StoreUnreachableError extends UsageError {
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
