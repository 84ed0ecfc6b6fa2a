/**
 * One OAI-PMH request over HTTP GET with a timeout and retries. Node's global
 * fetch is enough: it follows the 302 redirects OAI-PMH 2.0 section 3.1.2 allows,
 * and decompresses gzip/deflate responses (section 3.1.3) by itself.
 */
import { setTimeout as wait } from 'node:timers/promises';
import { HarvestHttpError } from './errors.js';
import { isRetryableStatus, retryDelay } from './retry.js';

export interface RetryInfo {
  url: string;
  /** The attempt that failed, 1-based; the next one is attempt + 1. */
  attempt: number;
  delayMs: number;
  reason: string;
}

export interface ClientOptions {
  /** Retries after the first attempt (so retries + 1 requests at most). Default 5. */
  retries?: number;
  /** First back-off delay; doubles each retry, with jitter. Default 1000 ms. */
  baseDelayMs?: number;
  /** Cap on any wait, back-off and Retry-After alike. Default 120000 ms (config harvest.maxRetryDelaySeconds). */
  maxDelayMs?: number;
  /** Per attempt, from sending the request to the end of the body. Default 60000 ms. */
  timeoutMs?: number;
  /** Replaces the real wait (tests record the delays instead of waiting). */
  sleep?: (ms: number) => Promise<void>;
  fetch?: typeof fetch;
  onRetry?: (info: RetryInfo) => void;
  /** Stops the harvest: an abort is thrown at once, never retried. */
  signal?: AbortSignal;
  userAgent?: string;
}

export const DEFAULTS = { retries: 5, baseDelayMs: 1000, maxDelayMs: 120_000, timeoutMs: 60_000 } as const;
const USER_AGENT = 'heritage-api OAI-PMH harvester';

export interface HttpAnswer {
  url: string;
  status: number;
  contentType: string;
  body: string;
  /** How many attempts it took, 1 if the first one answered. */
  attempts: number;
}

type Outcome =
  { kind: 'answer'; answer: Omit<HttpAnswer, 'attempts'>; retryAfter: string | null } | { kind: 'failure'; reason: string; cause: unknown };

/**
 * GETs `url` until it answers with a status that is not retried. Returns that
 * answer whatever its status (an OAI-PMH error can come with a 4xx from some
 * repositories, so the caller looks at the body first). Throws HarvestHttpError
 * when every attempt failed, and the abort reason when `signal` aborts.
 */
export async function httpGet(url: string, options: ClientOptions = {}): Promise<HttpAnswer> {
  const retries = options.retries ?? DEFAULTS.retries;
  const maxDelayMs = options.maxDelayMs ?? DEFAULTS.maxDelayMs;
  const baseDelayMs = options.baseDelayMs ?? DEFAULTS.baseDelayMs;
  const signal = options.signal;
  const sleep = options.sleep ?? ((ms: number) => abortableWait(ms, signal));

  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    const outcome = await attemptOnce(url, options);
    let reason: string;
    let retryAfter: string | null = null;
    if (outcome.kind === 'answer') {
      const { status } = outcome.answer;
      if (!isRetryableStatus(status)) return { ...outcome.answer, attempts: attempt };
      reason = `HTTP ${status}`;
      retryAfter = outcome.retryAfter;
      if (attempt > retries) {
        throw new HarvestHttpError(`${url} kept failing: ${reason} after ${attempt} attempt${attempt === 1 ? '' : 's'}.`, {
          url,
          attempts: attempt,
          status,
        });
      }
    } else {
      reason = outcome.reason;
      if (attempt > retries) {
        throw new HarvestHttpError(`${url} could not be harvested: ${reason} after ${attempt} attempt${attempt === 1 ? '' : 's'}.`, {
          url,
          attempts: attempt,
          cause: outcome.cause,
        });
      }
    }
    const delayMs = retryDelay(attempt, retryAfter, { baseDelayMs, maxDelayMs, nowMs: Date.now() });
    options.onRetry?.({ url, attempt, delayMs, reason: retryAfter === null ? reason : `${reason}, Retry-After: ${retryAfter}` });
    await sleep(delayMs);
  }
}

/** Waits, unless aborted: then throws the abort reason, as an abort during a request does. */
async function abortableWait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await wait(ms, undefined, signal === undefined ? {} : { signal });
  } catch (e) {
    if (signal?.aborted) throw signal.reason;
    throw e;
  }
}

async function attemptOnce(url: string, options: ClientOptions): Promise<Outcome> {
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const doFetch = options.fetch ?? fetch;
  try {
    const res = await doFetch(url, {
      signal,
      headers: { 'user-agent': options.userAgent ?? USER_AGENT, accept: 'text/xml, application/xml;q=0.9, */*;q=0.1' },
    });
    // The body is read under the same signal: a connection dropped or stalled
    // mid-body is as much a failed attempt as one that never answered.
    const body = await res.text();
    return {
      kind: 'answer',
      answer: { url, status: res.status, contentType: res.headers.get('content-type') ?? '', body },
      retryAfter: res.headers.get('retry-after'),
    };
  } catch (e) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (timeout.aborted) return { kind: 'failure', reason: `no complete answer within ${timeoutMs} ms`, cause: e };
    return { kind: 'failure', reason: `network error: ${describe(e)}`, cause: e };
  }
}

/** fetch reports "fetch failed" / "terminated"; the useful part (ECONNRESET, "other side closed") is in the cause. */
function describe(e: unknown): string {
  const parts: string[] = [];
  for (let c: unknown = e, depth = 0; c instanceof Error && depth < 4; c = c.cause, depth++) {
    const code = (c as { code?: unknown }).code;
    parts.push(typeof code === 'string' && !c.message.includes(code) ? `${c.message} (${code})` : c.message);
  }
  return parts.length > 0 ? parts.join(': ') : String(e);
}
