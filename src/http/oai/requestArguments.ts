/**
 * The arguments of an OAI-PMH request (OAI-PMH 2.0 sections 3.1 and 4), checked before any
 * store access: the verb (badVerb when missing, repeated or unknown), the arguments the
 * verb takes (badArgument for a missing required one, an unknown or repeated one, a
 * resumptionToken beside others), and `from`/`until` (section 3.3.1: UTC datestamps of one
 * granularity, from <= until). Every message says what to send instead.
 */
import type { OaiErrorItem } from '../../formats/oai/oaiXml.js';

export const VERBS = ['Identify', 'ListMetadataFormats', 'ListSets', 'GetRecord', 'ListIdentifiers', 'ListRecords'] as const;
export type Verb = (typeof VERBS)[number];

/** Required and optional arguments per verb; `exclusive`: may only come alone (section 3.5). */
const ARGUMENTS: Record<Verb, { required: string[]; optional: string[]; exclusive?: string }> = {
  Identify: { required: [], optional: [] },
  ListMetadataFormats: { required: [], optional: ['identifier'] },
  ListSets: { required: [], optional: [], exclusive: 'resumptionToken' },
  GetRecord: { required: ['identifier', 'metadataPrefix'], optional: [] },
  ListIdentifiers: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], exclusive: 'resumptionToken' },
  ListRecords: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], exclusive: 'resumptionToken' },
};

export type CheckedRequest =
  | { ok: true; verb: Verb; args: Record<string, string>; from?: number; until?: number }
  /** badVerb or badArgument: the response gives the base URL without the arguments (section 3.2). */
  | { ok: false; errors: OaiErrorItem[] };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const SECONDS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/** A datestamp as seconds since 1970 and its granularity; undefined when it is not one. */
function parseDatestamp(value: string, end: boolean): { seconds: number; day: boolean } | undefined {
  const m = SECONDS.exec(value) ?? DAY.exec(value);
  if (!m) return undefined;
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1).map(Number);
  const ms = Date.UTC(y!, mo! - 1, d, h, mi, s);
  const date = new Date(ms);
  if (
    date.getUTCFullYear() !== y ||
    date.getUTCMonth() !== mo! - 1 ||
    date.getUTCDate() !== d ||
    date.getUTCHours() !== h ||
    date.getUTCMinutes() !== mi ||
    date.getUTCSeconds() !== s
  ) {
    return undefined;
  }
  const day = m.length === 4;
  // A day as `until` takes in the whole day (section 2.7.1: inclusive, at the granularity given).
  return { seconds: Math.floor(ms / 1000) + (day && end ? 86_399 : 0), day };
}

const bad = (message: string): CheckedRequest => ({ ok: false, errors: [{ code: 'badArgument', message }] });

/** `params`: every name and value the request carried, repeats included, in order. */
export function checkRequest(params: ReadonlyArray<readonly [string, string]>): CheckedRequest {
  const verbs = params.filter(([k]) => k === 'verb').map(([, v]) => v);
  if (verbs.length === 0)
    return { ok: false, errors: [{ code: 'badVerb', message: `The request has no verb: add verb=, one of ${VERBS.join(', ')}.` }] };
  if (verbs.length > 1)
    return { ok: false, errors: [{ code: 'badVerb', message: 'The verb is given more than once: send one verb per request.' }] };
  const verb = verbs[0]!;
  if (!(VERBS as readonly string[]).includes(verb)) {
    const shown = /^[A-Za-z]{1,40}$/.test(verb) ? `'${verb}' is not an OAI-PMH verb` : 'The verb is not an OAI-PMH verb';
    return { ok: false, errors: [{ code: 'badVerb', message: `${shown}: use one of ${VERBS.join(', ')} (OAI-PMH 2.0 section 4).` }] };
  }
  const spec = ARGUMENTS[verb as Verb];
  const allowed = [...spec.required, ...spec.optional, ...(spec.exclusive ? [spec.exclusive] : [])];
  const args: Record<string, string> = {};
  for (const [name, value] of params) {
    if (name === 'verb') continue;
    if (!allowed.includes(name)) {
      const shown = /^[A-Za-z_]{1,40}$/.test(name) ? `'${name}'` : 'an argument';
      const takes = allowed.length === 0 ? 'takes no arguments' : `takes ${allowed.join(', ')}`;
      return bad(`${verb} does not take ${shown}: it ${takes} (OAI-PMH 2.0 section 4).`);
    }
    if (name in args) return bad(`The argument ${name} is given more than once: give it once.`);
    args[name] = value;
  }
  if (spec.exclusive !== undefined && spec.exclusive in args) {
    const others = Object.keys(args).filter((k) => k !== spec.exclusive);
    if (others.length > 0)
      return bad(
        `resumptionToken is an exclusive argument: send it alone with the verb, without ${others.join(', ')} (OAI-PMH 2.0 section 3.5).`,
      );
    return { ok: true, verb: verb as Verb, args };
  }
  for (const name of spec.required) {
    if (!(name in args))
      return bad(`${verb} needs the argument ${name}${name === 'metadataPrefix' ? ' (edm, oai_dc or ddb; see ListMetadataFormats)' : ''}.`);
  }
  const out: CheckedRequest = { ok: true, verb: verb as Verb, args };
  const from = args.from === undefined ? undefined : parseDatestamp(args.from, false);
  const until = args.until === undefined ? undefined : parseDatestamp(args.until, true);
  for (const [name, parsed] of [
    ['from', from],
    ['until', until],
  ] as const) {
    if (args[name] !== undefined && parsed === undefined) {
      return bad(
        `${name} is not a UTC datestamp: give YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ, e.g. 2024-03-01T12:00:00Z (OAI-PMH 2.0 section 3.3.1).`,
      );
    }
  }
  if (from && until) {
    if (from.day !== until.day)
      return bad(
        'from and until have different granularities: give both as YYYY-MM-DD or both as YYYY-MM-DDThh:mm:ssZ (OAI-PMH 2.0 section 3.3.1).',
      );
    if (from.seconds > until.seconds)
      return bad('from is later than until: the range is empty; give from <= until (OAI-PMH 2.0 section 2.7.1).');
  }
  if (from) out.from = from.seconds;
  if (until) out.until = until.seconds;
  return out;
}
