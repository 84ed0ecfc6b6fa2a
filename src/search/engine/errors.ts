/**
 * The two errors a search throws. Both are plain and cloneable, so a worker can send
 * `{name, message}` back and the caller rebuild them. Their codes (src/errorCodes.ts) say
 * what HTTP answers them with.
 */
import type { ErrorCode } from '../../errorCodes.js';

/** The search ran past its deadline (checked cooperatively; the HTTP layer answers 503). */
export class SearchDeadlineError extends Error {
  override readonly name = 'SearchDeadlineError';
  readonly code = 'search.overBudget' satisfies ErrorCode;
  constructor() {
    super('The search took longer than its time limit; narrow the query (more words, fewer wildcards) or try again.');
  }
}

/** The request cannot be answered as asked: a 400 with this message, which says what to fix. */
export class SearchRequestError extends Error {
  override readonly name = 'SearchRequestError';
  readonly code = 'search.request' satisfies ErrorCode;
}

/**
 * Cooperative deadline: `tick(n)` counts work and reads the clock only every 4096 units,
 * so a check costs almost nothing in a tight loop. `deadline` is an absolute time in
 * milliseconds on the clock `now` (default Date.now, which, unlike performance.now, is
 * the same in every worker thread).
 */
export class Deadline {
  private work = 0;

  constructor(
    private readonly deadline: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reads the clock now. */
  check(): void {
    if (this.now() > this.deadline) throw new SearchDeadlineError();
  }

  tick(units = 1): void {
    this.work += units;
    if (this.work >= 4096) {
      this.work = 0;
      this.check();
    }
  }
}
