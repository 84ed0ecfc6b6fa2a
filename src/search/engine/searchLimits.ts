/**
 * Bounds on the work of one entity search (docs/decisions.md "Bounded searches":
 * no request can hold the server). The numbers come from the `search` section of the
 * config (src/config.ts); a backend enforces the expansions and the
 * deadline, src/search/searchPool.ts the clause count and the budget.
 */
import { DEFAULTS } from '../../config.js';
import type { ErrorCode } from '../../errorCodes.js';
import type { QueryNode } from '../../query/ast.js';

export interface SearchLimits {
  /** Leaves of the query tree (terms, phrases, prefixes, wildcards, ranges, field:*), like Lucene's maxClauseCount. */
  maxClauses: number;
  /** Different words one wildcard may stand for. */
  maxExpansionsPerTerm: number;
  /** Different words all wildcards of one query may stand for together. */
  maxExpansionsPerQuery: number;
}

/** The limits of the config's defaults, for a search that is given none (the CLI, tests of a backend). */
export const DEFAULT_LIMITS: SearchLimits = {
  maxClauses: DEFAULTS.search.maxClauses,
  maxExpansionsPerTerm: DEFAULTS.search.maxExpansionsPerTerm,
  maxExpansionsPerQuery: DEFAULTS.search.maxExpansionsPerQuery,
};

/** How a backend runs one search: its limits and, when it has one, its deadline. */
export interface SearchOptions {
  limits?: SearchLimits;
  deadline?: Deadline;
}

/** What a search told to stop, or over a limit, is refused with: a catalog entry and its arguments. */
export type SearchLimitKind =
  | { key: 'tooManyClauses'; clauses: number; max: number }
  | { key: 'wildcardTooBroad'; pattern: string; max: number }
  | { key: 'queryTooBroad'; max: number };

/** A search over one of its limits; the HTTP layer answers the catalog entry `limit.key` (a 400). */
export class SearchLimitError extends Error {
  readonly code = 'search.limit' satisfies ErrorCode;
  constructor(readonly limit: SearchLimitKind) {
    super(`search over its limit: ${limit.key}`);
  }
}

/** Thrown by Deadline.check once the time budget is spent. */
export class SearchOverBudgetError extends Error {
  readonly code = 'search.overBudget' satisfies ErrorCode;
  constructor(readonly budgetMs: number) {
    super(`search over its budget of ${budgetMs} ms`);
  }
}

/** Every search worker busy and the queue full (src/search/searchPool.ts): a 503 to retry after about a budget. */
export class SearchBusyError extends Error {
  readonly code = 'search.busy' satisfies ErrorCode;
  constructor(readonly budgetMs: number) {
    super('every search worker is busy and the queue is full');
  }
}

/**
 * The end of a search's time budget, checked cooperatively in the loops of
 * the evaluation (each check is one performance.now()). The clock of the
 * thread that runs the search: threads do not share performance.now().
 */
export class Deadline {
  private readonly end: number;

  constructor(readonly budgetMs: number) {
    this.end = performance.now() + budgetMs;
  }

  /** Throws SearchOverBudgetError once the budget is spent. */
  check(): void {
    if (performance.now() > this.end) throw new SearchOverBudgetError(this.budgetMs);
  }

  /** A deadline that never comes (a search from the CLI or a test that sets none). */
  static readonly NONE: Deadline = new Deadline(Number.POSITIVE_INFINITY);
}

/** Leaves of the query: what maxClauses counts. `*:*` is not a clause. */
export function countClauses(node: QueryNode<string>): number {
  switch (node.kind) {
    case 'all':
      return 0;
    case 'and':
    case 'or':
      return node.children.reduce((n, c) => n + countClauses(c), 0);
    case 'not':
      return countClauses(node.child);
    default:
      return 1;
  }
}

/** Throws SearchLimitError when the query has more leaves than `max`. */
export function checkClauses(query: QueryNode<string>, max: number): void {
  const clauses = countClauses(query);
  if (clauses > max) throw new SearchLimitError({ key: 'tooManyClauses', clauses, max });
}
