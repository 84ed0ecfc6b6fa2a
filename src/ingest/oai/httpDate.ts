/**
 * HTTP-date (RFC 9110 section 5.6.7), the three forms a recipient must accept.
 * Matched explicitly instead of handing the text to Date.parse, which reads the
 * zone-less asctime form in local time and accepts many strings that are no
 * HTTP-date at all.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850 = new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/** Milliseconds since the epoch, or null if `value` is not an HTTP-date (or names an impossible day). */
export function parseHttpDate(value: string, nowMs: number = Date.now()): number | null {
  let m: RegExpExecArray | null;
  let parts: [year: number, month: string, day: string, h: string, min: string, s: string];
  if ((m = IMF_FIXDATE.exec(value))) {
    parts = [Number(m[3]), m[2]!, m[1]!, m[4]!, m[5]!, m[6]!];
  } else if ((m = RFC850.exec(value))) {
    // Section 5.6.7: a two-digit year more than 50 years in the future is the
    // most recent past year with those digits.
    const nowYear = new Date(nowMs).getUTCFullYear();
    let year = Math.floor(nowYear / 100) * 100 + Number(m[3]);
    if (year > nowYear + 50) year -= 100;
    parts = [year, m[2]!, m[1]!, m[4]!, m[5]!, m[6]!];
  } else if ((m = ASCTIME.exec(value))) {
    parts = [Number(m[6]), m[1]!, m[2]!.trim(), m[3]!, m[4]!, m[5]!];
  } else {
    return null;
  }
  const [year, month, day, h, min, s] = parts;
  const monthIndex = MONTHS.indexOf(month);
  const ms = Date.UTC(year, monthIndex, Number(day), Number(h), Number(min), Number(s));
  const back = new Date(ms);
  // Date.UTC rolls 31 Feb over into March; such a date is not a date.
  if (back.getUTCDate() !== Number(day) || back.getUTCMonth() !== monthIndex || Number(h) > 23 || Number(min) > 59 || Number(s) > 60)
    return null;
  return ms;
}
