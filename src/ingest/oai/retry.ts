/**
 * When and how long to wait before sending a failed request again. Pure, so the
 * policy is tested without a network.
 */
import { parseHttpDate } from './httpDate.js';

/**
 * 5xx are the repository's own trouble and may pass; OAI-PMH 2.0 section 3.1.2
 * names 503 with Retry-After as the repository's way of asking a harvester to
 * come back later. A 4xx means the request itself is wrong: sending it again
 * gives the same answer.
 */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 && status <= 599;
}

/**
 * The delay asked for by a Retry-After header, in milliseconds, or null if the
 * value is neither form of RFC 9110 section 10.2.3: delay-seconds (a
 * non-negative integer) or an HTTP-date. A date in the past means "now" (0).
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (value === null || value === undefined) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = parseHttpDate(v, nowMs);
  return at === null ? null : Math.max(0, at - nowMs);
}

/**
 * Exponential back-off with "equal jitter": the n-th retry waits between half
 * and all of min(maxDelayMs, baseDelayMs * 2^(n-1)). The jitter keeps many
 * harvesters that failed together from coming back together; the fixed half
 * keeps the wait from collapsing to nothing.
 */
export function backoffDelay(retry: number, baseDelayMs: number, maxDelayMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * The wait before the next attempt: the repository's Retry-After where it gave
 * a readable one (capped, so a misconfigured server cannot park the harvest for
 * a day), the back-off otherwise.
 */
export function retryDelay(
  retry: number,
  retryAfter: string | null,
  policy: { baseDelayMs: number; maxDelayMs: number; nowMs: number; random?: () => number },
): number {
  const asked = parseRetryAfter(retryAfter, policy.nowMs);
  if (asked !== null) return Math.min(asked, policy.maxDelayMs);
  return backoffDelay(retry, policy.baseDelayMs, policy.maxDelayMs, policy.random);
}
