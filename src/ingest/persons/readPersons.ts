/**
 * Reads person entities from the formats GND data comes in (docs/cli.md
 * "ingest entities PATH...").
 * The format is detected from the content, not the file name, because GND dumps and
 * API responses are saved under arbitrary names. Pure: text in, results out.
 */
import { blankSpans, DEFAULT_LIMITS, jsonLineProblem, scanJsonRecords, type RecordLimits } from '../../formats/recordLimits.js';
import { describe, isObject, type RecordResult } from './fields.js';
import { ACCEPTED_RECORDS, mapRecord, recordKind } from './personFormats.js';
import type { Person } from '../../domain/person.js';

export type PersonReadResult =
  | { kind: 'person'; person: Person; position: string }
  | { kind: 'skipped'; entityType: string; position: string }
  | { kind: 'error'; reason: string; position: string };

export type PersonFormat = 'entityfacts' | 'lobid' | 'lobid-search' | 'jsonl' | 'es-bulk' | 'entity' | 'search-answer' | 'unknown';

export const ACCEPTED_FORMATS =
  'a DNB EntityFacts JSON array or one EntityFacts record per line; a lobid-gnd record; ' +
  'a lobid-gnd search page ({"member": [...]}); lobid-gnd JSON lines; Elasticsearch bulk lines ' +
  '({"index": {...}} then the record); entities ({"id", "type": "person", "preferredName", ...}) ' +
  'one per line or as a JSON array; saved answers of the person search (/entities, /search/person: ' +
  '{"results": [{"docs": [entities]}], ...}), one per file or one per line';

/**
 * Lines of a file that are not UTF-8 (src/ingest/readInputs.ts decodeUtf8Lines):
 * in JSON lines each is an error of its own; in a document, `reason` is the one error.
 */
export interface NotUtf8 {
  reason: string;
  /** Line number -> why; the text holds these lines empty. */
  lines: ReadonlyMap<number, string>;
}

/** The text parsed once: either one JSON document, or lines, or neither. */
type Parsed =
  | { shape: 'document'; doc: unknown; refused: ReadonlyMap<number, string> }
  | { shape: 'lines'; lines: Line[] }
  | { shape: 'broken'; reason: string; position?: 'file' }
  | { shape: 'empty' }
  | { shape: 'other'; start: string };

/** A non-blank line: its value, or why it cannot be read (`syntax` when JSON.parse refused it). */
type Line = { n: number; value: unknown } | { n: number; error: string; syntax: boolean };

/**
 * Line-based when the text is more than one line and either its first non-blank line
 * is a complete JSON object (then the whole cannot be one document), or it is not one
 * document and it has at least as many complete objects as lines that are not JSON. A
 * pretty-printed document starts with a lone "{" and is mostly lines that are not JSON.
 * Lines that break the limits, are not UTF-8 or are JSON but not objects count for
 * neither side: they are line-shaped damage, reported each on its own.
 */
function parse(text: string, limits: RecordLimits, notUtf8?: NotUtf8): Parsed {
  const rows = text.split(/\r?\n/);
  const blank = (i: number) => rows[i]!.trim() === '' && notUtf8?.lines.has(i + 1) !== true;
  let first = 0;
  while (first < rows.length && blank(first)) first++;
  if (first === rows.length) return { shape: 'empty' };
  let multiLine = false;
  for (let i = first + 1; i < rows.length && !multiLine; i++) multiLine = !blank(i);
  if (multiLine) {
    const head = parseLine(rows, first, limits, notUtf8);
    if ('value' in head && isObject(head.value)) return { shape: 'lines', lines: parseLines(rows, limits, notUtf8) };
  }
  const whole =
    notUtf8 !== undefined ? { shape: 'broken' as const, reason: notUtf8.reason, position: 'file' as const } : parseDocument(text, limits);
  if (whole.shape === 'document' || !multiLine) return whole;
  const lines = parseLines(rows, limits, notUtf8);
  let objects = 0;
  let syntax = 0;
  for (const l of lines) {
    if ('value' in l) objects += isObject(l.value) ? 1 : 0;
    else syntax += l.syntax ? 1 : 0;
  }
  return objects > 0 && objects >= syntax ? { shape: 'lines', lines } : whole;
}

/** The text as one JSON document, its records held to the limits first. */
function parseDocument(text: string, limits: RecordLimits): Parsed {
  const trimmed = text.trim();
  if (trimmed[0] !== '{' && trimmed[0] !== '[') return { shape: 'other', start: trimmed.slice(0, 20) };
  const scan = scanJsonRecords(text, limits);
  // A document that is one record (not an array of them) is refused whole.
  if (scan.refused.length > 0 && !scan.arrayRoot) return { shape: 'broken', reason: scan.refused[0]!.reason };
  try {
    const doc: unknown = JSON.parse(blankSpans(text, scan.refused));
    return { shape: 'document', doc, refused: new Map(scan.refused.map((r) => [r.index, r.reason])) };
  } catch (e) {
    return { shape: 'broken', reason: documentSyntaxError(trimmed, e) };
  }
}

function documentSyntaxError(text: string, e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const at = /at position (\d+)/.exec(message)?.[1];
  let where = '';
  if (at !== undefined) {
    const before = text.slice(0, Number(at)).split('\n');
    where = ` at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
  }
  return (
    `JSON syntax error in the document${where} (${message}); nothing was read from it. ` +
    'Expected one JSON document (an array or an object), or one JSON object per line'
  );
}

/** Row `i` (0-based) on its own: held to the limits before it is parsed, so no line can cost another. */
function parseLine(rows: readonly string[], i: number, limits: RecordLimits, notUtf8?: NotUtf8): Line {
  const n = i + 1;
  const undecodable = notUtf8?.lines.get(n);
  if (undecodable !== undefined) return { n, error: undecodable, syntax: false };
  const row = rows[i]!;
  const problem = jsonLineProblem(row, n, limits);
  if (problem !== null) return { n, error: problem, syntax: false };
  try {
    return { n, value: JSON.parse(row) };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { n, error: `JSON syntax error (${message}); expected one JSON object on this line`, syntax: true };
  }
}

function parseLines(rows: readonly string[], limits: RecordLimits, notUtf8?: NotUtf8): Line[] {
  const out: Line[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (rows[i]!.trim() !== '' || notUtf8?.lines.has(i + 1) === true) out.push(parseLine(rows, i, limits, notUtf8));
  }
  return out;
}

const BULK_ACTIONS = ['index', 'create', 'update', 'delete'];

/**
 * The entities of a saved answer of the person search, this service's `/entities` or the
 * DDB's `/search/person` (`{"numberOfResults", "results": [{"name", "docs": [...],
 * "numberOfDocs"}], "facets", ...}`): the docs of every result group, or null when the
 * value is no such answer. A format users have: what they saved from the API.
 */
function searchAnswerDocs(v: unknown): unknown[][] | null {
  if (!isObject(v) || !Array.isArray(v['results'])) return null;
  const groups = v['results'] as unknown[];
  if (!groups.every((g) => isObject(g) && Array.isArray(g['docs']))) return null;
  return groups.map((g) => (g as Record<string, unknown[]>)['docs']!);
}

/** Each doc of a saved search answer, mapped, at `where` and its place in the answer. */
function readAnswer(groups: unknown[][], where: string): PersonReadResult[] {
  return groups.flatMap((docs, g) => docs.map((doc, d) => at(mapRecord(doc), `${where}result ${g + 1}, doc ${d + 1}`)));
}

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
    if (searchAnswerDocs(v) !== null) return 'search-answer';
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
  return detect(parse(text.replace(/^\uFEFF/, ''), DEFAULT_LIMITS));
}

function at(r: RecordResult, position: string): PersonReadResult {
  return { ...r, position };
}

/**
 * Lines of any line-based format. Bulk action lines are dropped and the record lines read
 * on their own, so a broken action line costs one error, not the record after it too.
 */
function readLines(lines: Line[]): PersonReadResult[] {
  const out: PersonReadResult[] = [];
  let skipPartialDoc = false;
  for (const line of lines) {
    const position = `line ${line.n}`;
    if ('error' in line) {
      skipPartialDoc = false;
      out.push({ kind: 'error', position, reason: line.error });
      continue;
    }
    const action = bulkAction(line.value);
    if (action === 'index' || action === 'create') continue;
    if (action !== null) {
      // update carries a partial document on the next line, delete none: neither is a record.
      skipPartialDoc = action === 'update';
      out.push({
        kind: 'error',
        position,
        reason: `bulk action "${action}" is not supported; expected "index" or "create" followed by the record`,
      });
      continue;
    }
    if (skipPartialDoc) {
      skipPartialDoc = false;
      continue;
    }
    const answer = searchAnswerDocs(line.value);
    if (answer !== null) {
      out.push(...readAnswer(answer, `${position}, `));
      continue;
    }
    out.push(at(mapRecord(line.value), position));
  }
  return out;
}

/**
 * Reads all records of `text`, whatever the format; never throws on bad input.
 * Records that nest too deep or are larger than the limits
 * (src/formats/recordLimits.ts) are errors, found before anything is parsed;
 * a document that is one record (a lobid-gnd record or search page) is refused whole.
 * In JSON lines every line stands alone: a bad line (truncated, too deep, too large,
 * not UTF-8, not an object) is one error at its line, and every other line is read.
 */
export function readPersons(input: string, limits: RecordLimits = DEFAULT_LIMITS, notUtf8?: NotUtf8): PersonReadResult[] {
  const text = input.replace(/^\uFEFF/, '');
  const parsed = parse(text, limits, notUtf8);
  const format = detect(parsed);
  switch (parsed.shape) {
    case 'empty':
      return [{ kind: 'error', position: 'document', reason: `the input is empty; expected ${ACCEPTED_FORMATS}` }];
    case 'broken':
      return [{ kind: 'error', position: parsed.position ?? 'document', reason: parsed.reason }];
    case 'lines':
      if (format !== 'unknown') return readLines(parsed.lines);
      return [
        { kind: 'error', position: 'document', reason: `unknown format: no line holds ${ACCEPTED_RECORDS}; expected ${ACCEPTED_FORMATS}` },
      ];
    case 'other':
      return [
        {
          kind: 'error',
          position: 'document',
          reason: `unknown format: the text is not JSON (it starts with ${JSON.stringify(parsed.start)}); expected ${ACCEPTED_FORMATS}`,
        },
      ];
    case 'document': {
      if (format === 'unknown') {
        return [
          { kind: 'error', position: 'document', reason: `unknown format: found ${describe(parsed.doc)}; expected ${ACCEPTED_FORMATS}` },
        ];
      }
      const doc = parsed.doc;
      const answer = searchAnswerDocs(doc);
      if (answer !== null) return readAnswer(answer, '');
      const records = format === 'lobid-search' && isObject(doc) ? (doc['member'] as unknown[]) : Array.isArray(doc) ? doc : [doc];
      return records.flatMap((r, i): PersonReadResult[] => {
        const tooBig = doc === records ? parsed.refused.get(i) : undefined;
        if (tooBig !== undefined) return [{ kind: 'error', position: `record ${i + 1}`, reason: tooBig }];
        // An array of saved answers (pages saved one after another).
        const saved = searchAnswerDocs(r);
        return saved !== null ? readAnswer(saved, `record ${i + 1}, `) : [at(mapRecord(r), `record ${i + 1}`)];
      });
    }
  }
}
