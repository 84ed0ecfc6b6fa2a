/**
 * OAI-PMH datestamps in requests (OAI-PMH 2.0 section 3.3.1): UTC, either day
 * granularity YYYY-MM-DD or seconds granularity YYYY-MM-DDThh:mm:ssZ, and
 * `from` and `until` in one request must have the same granularity. Checked
 * before the first request so that an operator's typo is reported as such
 * instead of as the repository's terse badArgument after a round trip.
 */
import { UsageError } from '../../errors.js';

export type Granularity = 'YYYY-MM-DD' | 'YYYY-MM-DDThh:mm:ssZ';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const SECONDS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/** The granularity of a valid OAI datestamp, or null if `value` is not one. */
export function datestampGranularity(value: string): Granularity | null {
  const m = DAY.exec(value) ?? SECONDS.exec(value);
  if (!m) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1).map(Number);
  // The patterns accept 2024-02-30 and 25:00:00; a round trip through Date catches both.
  const date = new Date(Date.UTC(year!, month! - 1, day, hour, minute, second));
  const real =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month! - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  if (!real) return null;
  return m.length === 4 ? 'YYYY-MM-DD' : 'YYYY-MM-DDThh:mm:ssZ';
}

/**
 * Throws a UsageError naming the argument unless `from` and `until` (each
 * optional) are OAI datestamps of one granularity with from <= until
 * (OAI-PMH 2.0 sections 2.7.1 and 3.3.1).
 */
export function checkDateRange(from: string | undefined, until: string | undefined): void {
  const granularities: Partial<Record<'from' | 'until', Granularity>> = {};
  for (const [name, value] of [
    ['from', from],
    ['until', until],
  ] as const) {
    if (value === undefined) continue;
    const g = datestampGranularity(value);
    if (!g) {
      throw new UsageError(
        `${name} '${value}' is not an OAI-PMH datestamp: give a UTC date as YYYY-MM-DD (e.g. 2024-03-01) ` +
          'or a UTC time as YYYY-MM-DDThh:mm:ssZ (e.g. 2024-03-01T12:00:00Z) (OAI-PMH 2.0 section 3.3.1).',
      );
    }
    granularities[name] = g;
  }
  if (from !== undefined && until !== undefined) {
    if (granularities.from !== granularities.until) {
      throw new UsageError(
        `from '${from}' and until '${until}' must have the same granularity, both YYYY-MM-DD or both YYYY-MM-DDThh:mm:ssZ (OAI-PMH 2.0 section 3.3.1).`,
      );
    }
    // Same granularity and fixed width, so string order is time order.
    if (from > until) throw new UsageError(`from '${from}' is later than until '${until}' (OAI-PMH 2.0 section 2.7.1).`);
  }
}
