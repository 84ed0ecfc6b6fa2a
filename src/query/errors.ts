/**
 * The only error `parseQuery` throws. The HTTP layer turns it into a 400, and its message
 * is shown to API users as is, so it names the position and what would have been valid:
 *   Query syntax error at position 7: expected a term after 'AND'.
 *   Query syntax error at position 0: unknown field 'foo'; expected one of the fields id, ...
 */
import type { ErrorCode } from '../errorCodes.js';

export class QuerySyntaxError extends Error {
  override readonly name = 'QuerySyntaxError';
  /** src/errorCodes.ts: what HTTP answers it with. */
  readonly code = 'query.syntax' satisfies ErrorCode;
  /** 0-based character offset into the query as the user sent it. */
  readonly position: number;
  /** What would have been valid at `position`, as a phrase (no trailing period). */
  readonly expected: string;

  /** `problem` is an optional statement of what is wrong, put before the expectation. */
  constructor(position: number, expected: string, problem?: string) {
    const what = problem ? `${problem}; expected ${expected}` : `expected ${expected}`;
    super(`Query syntax error at position ${position}: ${what}.`);
    this.position = position;
    this.expected = expected;
  }
}

/** Quotes a piece of the query for a message; long pieces are shortened. */
export function quote(text: string): string {
  const short = text.length > 40 ? `${text.slice(0, 37)}...` : text;
  return `'${short}'`;
}
