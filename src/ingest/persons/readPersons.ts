/**
 * Reads person entities from the formats GND data comes in (issue 3 "Loading persons").
 * The format is detected from the content, not the file name, because GND dumps and
 * API responses are saved under arbitrary names. Pure: text in, results out.
 */
import { blankSpans, DEFAULT_LIMITS, scanJsonRecords, type RecordLimits, type RefusedSpan } from '../../formats/recordLimits.js';
import { describe, isObject, type RecordResult } from './fields.js';
import { ACCEPTED_RECORDS, mapRecord, recordKind } from './mappers.js';
import type { Person } from '../../domain/person.js';

export type PersonReadResult =
  | { kind: 'person'; person: Person; position: string }
  | { kind: 'skipped'; entityType: string; position: string }
  | { kind: 'error'; reason: string; position: string };

export type PersonFormat = 'entityfacts' | 'lobid' | 'lobid-search' | 'jsonl' | 'es-bulk' | 'entity' | 'unknown';

export const ACCEPTED_FORMATS =
  'a DNB EntityFacts JSON array or one EntityFacts record per line; a lobid-gnd record; ' +
  'a lobid-gnd search page ({"member": [...]}); lobid-gnd JSON lines; Elasticsearch bulk lines ' +
  '({"index": {...}} then the record); entities ({"id", "type": "person", "preferredName", ...}) ' +
  'one per line or as a JSON array';

/** The text parsed once: either one JSON document, or lines, or neither. */
type Parsed =
  | { shape: 'document'; doc: unknown }
  | { shape: 'lines'; lines: Line[] }
  | { shape: 'broken'; reason: string }
  | { shape: 'empty' }
  | { shape: 'other'; start: string };

type Line = { n: number; value: unknown } | { n: number; syntaxError: string };

function parse(text: string): Parsed {
  const trimmed = text.trim();
  if (trimmed === '') return { shape: 'empty' };
  if (trimmed[0] !== '{' && trimmed[0] !== '[') return { shape: 'other', start: trimmed.slice(0, 20) };
  try {
    return { shape: 'document', doc: JSON.parse(trimmed) };
  } catch (e) {
    // Each line is parsed once, here; detection and reading reuse the values.
    const lines = parseLines(text.split(/\r?\n/));
    if (trimmed[0] === '{' && looksLineBased(lines)) return { shape: 'lines', lines };
    return { shape: 'broken', reason: documentSyntaxError(trimmed, e) };
  }
}

/**
 * Line-based when the first non-blank line is a complete JSON object, or (when that
 * line is the broken one) at least half the lines are. A pretty-printed document starts
 * with a lone "{" and has few complete objects on one line.
 */
function looksLineBased(lines: Line[]): boolean {
  const isObjectLine = (l: Line): boolean => 'value' in l && isObject(l.value);
  if (lines.length < 2) return false;
  if (isObjectLine(lines[0]!)) return true;
  return lines.filter(isObjectLine).length * 2 >= lines.length;
}

function documentSyntaxError(text: string, e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const at = /at position (\d+)/.exec(message)?.[1];
  let where = '';
  if (at !== undefined) {
    const before = text.slice(0, Number(at)).split('\n');
    where = ` at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
  }
  return `JSON syntax error in the document${where} (${message}); nothing was read from it. ` +
    'Expected one JSON document (an array or an object), or one JSON object per line';
}

function parseLines(lines: string[]): Line[] {
  const out: Line[] = [];
  lines.forEach((l, i) => {
    if (l.trim() === '') return;
    try {
      out.push({ n: i + 1, value: JSON.parse(l) });
    } catch (e) {
      out.push({ n: i + 1, syntaxError: e instanceof Error ? e.message : String(e) });
    }
  });
  return out;
}

const BULK_ACTIONS = ['index', 'create', 'update', 'delete'];

/** An Elasticsearch bulk action line: one key, the action, holding its metadata object. */
function bulkAction(v: unknown): string | null {
  if (!isObject(v)) return null;
  const keys = Object.keys(v);
  const [key] = keys;
  return keys.length === 1 && key !== undefined && BULK_ACTIONS.includes(key) && isObject(v[key]) ? key : null;
}

/** The format named by the first record we recognise (arrays and lines may start with junk). */
function formatOf(values: unknown[], whole: boolean): PersonFormat {
  for (const v of values) {
    if (bulkAction(v) !== null) return 'es-bulk';
    const kind = recordKind(v);
    if (kind === 'entityfacts' || kind === 'entity') return kind;
    if (kind === 'lobid') return whole ? 'lobid' : 'jsonl';
  }
  return 'unknown';
}

function detect(parsed: Parsed): PersonFormat {
  switch (parsed.shape) {
    case 'document': {
      const doc = parsed.doc;
      if (isObject(doc) && Array.isArray(doc['member'])) return 'lobid-search';
      return formatOf(Array.isArray(doc) ? doc : [doc], true);
    }
    case 'lines': {
      const values = parsed.lines.flatMap((l) => ('value' in l ? [l.value] : []));
      return formatOf(values, false);
    }
    default:
      return 'unknown';
  }
}

/** Which of the accepted formats the text is in, from its content. */
export function detectPersonFormat(text: string): PersonFormat {
  return detect(parse(text.replace(/^\uFEFF/, '')));
}

function at(r: RecordResult, position: string): PersonReadResult {
  return { ...r, position };
}

/**
 * Lines of any line-based format. Bulk action lines are dropped and the record lines read
 * on their own, so a broken action line costs one error, not the record after it too.
 */
function readLines(lines: Line[], refused: ReadonlyMap<number, string>): PersonReadResult[] {
  const out: PersonReadResult[] = [];
  let skipPartialDoc = false;
  for (const line of lines) {
    const position = `line ${line.n}`;
    const tooBig = refused.get(line.n);
    if (tooBig !== undefined) {
      skipPartialDoc = false;
      out.push({ kind: 'error', position, reason: tooBig });
      continue;
    }
    if ('syntaxError' in line) {
      skipPartialDoc = false;
      out.push({ kind: 'error', position, reason: `JSON syntax error (${line.syntaxError}); expected one JSON object on this line` });
      continue;
    }
    const action = bulkAction(line.value);
    if (action === 'index' || action === 'create') continue;
    if (action !== null) {
      // update carries a partial document on the next line, delete none: neither is a record.
      skipPartialDoc = action === 'update';
      out.push({ kind: 'error', position, reason: `bulk action "${action}" is not supported; expected "index" or "create" followed by the record` });
      continue;
    }
    if (skipPartialDoc) { skipPartialDoc = false; continue; }
    out.push(at(mapRecord(line.value), position));
  }
  return out;
}

/** The line each span starts on, in one pass (the spans are in text order). */
function linesOf(text: string, spans: readonly RefusedSpan[]): Map<number, string> {
  const out = new Map<number, string>();
  let line = 1;
  let at = 0;
  for (const span of spans) {
    for (let nl = text.indexOf('\n', at); nl !== -1 && nl < span.start; nl = text.indexOf('\n', nl + 1)) {
      line += 1;
      at = nl + 1;
    }
    out.set(line, span.reason);
  }
  return out;
}

/**
 * Reads all records of `text`, whatever the format; never throws on bad input.
 * Records that nest too deep or are larger than the limits
 * (src/formats/recordLimits.ts) are errors, found before anything is parsed;
 * a document that is one record (a lobid-gnd record or search page) is refused whole.
 */
export function readPersons(input: string, limits: RecordLimits = DEFAULT_LIMITS): PersonReadResult[] {
  const text = input.replace(/^\uFEFF/, '');
  const scan = scanJsonRecords(text, limits);
  const parsed = parse(blankSpans(text, scan.refused));
  if (scan.refused.length > 0 && !scan.arrayRoot && parsed.shape !== 'lines') {
    return [{ kind: 'error', position: 'document', reason: scan.refused[0]!.reason }];
  }
  const refusedRecords = new Map(scan.arrayRoot ? scan.refused.map((r) => [r.index, r.reason]) : []);
  const refusedLines = scan.arrayRoot ? new Map<number, string>() : linesOf(text, scan.refused);
  const format = detect(parsed);
  switch (parsed.shape) {
    case 'empty':
      return [{ kind: 'error', position: 'document', reason: `the input is empty; expected ${ACCEPTED_FORMATS}` }];
    case 'broken':
      return [{ kind: 'error', position: 'document', reason: parsed.reason }];
    case 'lines':
      if (format !== 'unknown') return readLines(parsed.lines, refusedLines);
      return [{ kind: 'error', position: 'document', reason: `unknown format: no line holds ${ACCEPTED_RECORDS}; expected ${ACCEPTED_FORMATS}` }];
    case 'other':
      return [{ kind: 'error', position: 'document', reason: `unknown format: the text is not JSON (it starts with ${JSON.stringify(parsed.start)}); expected ${ACCEPTED_FORMATS}` }];
    case 'document': {
      if (format === 'unknown') {
        return [{ kind: 'error', position: 'document', reason: `unknown format: found ${describe(parsed.doc)}; expected ${ACCEPTED_FORMATS}` }];
      }
      const doc = parsed.doc;
      const records = format === 'lobid-search' && isObject(doc) ? (doc['member'] as unknown[])
        : Array.isArray(doc) ? doc : [doc];
      return records.map((r, i) => {
        const tooBig = doc === records ? refusedRecords.get(i) : undefined;
        return tooBig === undefined ? at(mapRecord(r), `record ${i + 1}`) : { kind: 'error', position: `record ${i + 1}`, reason: tooBig };
      });
    }
  }
}
