/**
 * What can go wrong with a store that the operator, not the code, must fix.
 * Backends translate their own errors into these, so the CLI can say what to
 * do without knowing the backend (docs/cli.md "Mistakes and problems").
 * A store that cannot answer now (unreachable, busy) is in src/domain/storeErrors.ts,
 * since the search passes it on too.
 */
import { UsageError } from '../errors.js';

export { StoreBusyError, StoreUnreachableError } from '../domain/storeErrors.js';

/** The store is not there, and the command may not create one (only loads do). */
export class StoreNotFoundError extends UsageError {
  constructor(readonly location: string) {
    super(`There is no store at ${location}.`);
  }
}
