// The limits every ingested record is held to, whatever its kind (docs/decisions.md "Record limits"),
// and the scan that enforces them on JSON text before it is parsed.
//
// Why a nesting limit: real records nest a dozen levels (cortex > edm > rdf:RDF >
// ProvidedCHO > property > ...). A hostile file nested 20,000 levels deep overflowed the
// stack of the recursive steps after parsing (jsonc-parser's parseTree, cortexToJson,
// JSON.stringify) and killed the whole load; saxes resolves namespaces by walking the
// open elements, so 200,000 levels cost minutes before anything failed. The limit is
// checked while reading, so no tree deeper than it is ever built.
//
// Why a size limit: one record of 50 MB (a person with a 50 MB name) was loaded at
// 1.36 GB of memory. ingest.maxRecordBytes (src/config.ts) bounds every record kind.

/** Deepest nesting of elements (XML) or of arrays and objects (JSON) a record may have; docs/cli.md. */
export const MAX_NESTING_DEPTH = 256;

export interface RecordLimits {
  /** Largest record, in UTF-8 bytes (ingest.maxRecordBytes). */
  maxRecordBytes: number;
}

/** The default of ingest.maxRecordBytes: far above any real record (the largest fixture is 43 kB), small enough to bound memory. */
export const DEFAULT_MAX_RECORD_BYTES = 16 * 1024 * 1024;

export const DEFAULT_LIMITS: RecordLimits = { maxRecordBytes: DEFAULT_MAX_RECORD_BYTES };

export function tooDeepReason(line: number, column: number): string {
  return `nested deeper than ${MAX_NESTING_DEPTH} levels (at line ${line}, column ${column}); no record nests that deep: check how the file was made`;
}

export function tooLargeReason(bytes: number, limit: number): string {
  return `the record is ${bytes} bytes, more than the limit of ${limit} bytes (ingest.maxRecordBytes); it was skipped: split the record, or raise the limit`;
}

/** 1-based line and column (UTF-16 units) of an offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** UTF-8 length of text[start, end), computed only when the UTF-16 length cannot settle it. */
function bytesOver(text: string, start: number, end: number, limit: number): number | null {
  const units = end - start;
  if (units * 3 <= limit) return null; // a UTF-16 unit is at most 3 UTF-8 bytes
  const bytes = Buffer.byteLength(text.slice(start, end), 'utf8');
  return bytes > limit ? bytes : null;
}

/**
 * Why one line of JSON lines breaks a limit (too large, or nested too deep), or
 * null. Each line is held to the limits on its own, so a line left unbalanced
 * (a truncated record) never draws the lines after it into its record.
 */
export function jsonLineProblem(line: string, lineNumber: number, limits: RecordLimits): string | null {
  const bytes = bytesOver(line, 0, line.length, limits.maxRecordBytes);
  if (bytes !== null) return tooLargeReason(bytes, limits.maxRecordBytes);
  let depth = 0;
  const n = line.length;
  for (let i = 0; i < n; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // Skip the string: to the next quote not escaped by an odd run of backslashes.
      let j = line.indexOf('"', i + 1);
      while (j >= 0) {
        let backslashes = 0;
        for (let k = j - 1; line.charCodeAt(k) === 0x5c; k--) backslashes++;
        if (backslashes % 2 === 0) break;
        j = line.indexOf('"', j + 1);
      }
      if (j < 0) return null;
      i = j;
    } else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > MAX_NESTING_DEPTH) return tooDeepReason(lineNumber, i + 1);
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
    }
  }
  return null;
}

/** A record of a JSON text that breaks a limit. */
export interface RefusedSpan {
  /** Index of the record: the element of a root array, or the top-level value (0 for a single document). */
  index: number;
  /** Where the record's text starts and ends (the end before the separator that follows it). */
  start: number;
  end: number;
  reason: string;
}

export interface JsonScan {
  /** Whether the text is one array whose elements are the records. */
  arrayRoot: boolean;
  refused: RefusedSpan[];
}

/**
 * Finds the records of a JSON text (the elements of a root array, or else each
 * top-level value: one for a document, one a line for JSON lines) that nest
 * deeper than MAX_NESTING_DEPTH or are larger than maxRecordBytes, in one linear
 * pass that builds nothing. Syntax is not checked: the parser after it does that.
 */
export function scanJsonRecords(text: string, limits: RecordLimits): JsonScan {
  const { maxRecordBytes } = limits;
  const first = text.search(/\S/);
  const arrayRoot = first >= 0 && text.charCodeAt(first) === 0x5b; // '['
  // Records sit at this depth: inside the root array (1), or at the top (0).
  const recordDepth = arrayRoot ? 1 : 0;
  const refused: RefusedSpan[] = [];
  let depth = 0;
  let index = -1;
  let start = -1; // start of the open record, -1 when none
  let deepAt = -1;
  const close = (end: number) => {
    if (start < 0) return;
    if (deepAt >= 0) {
      const at = lineColumnAt(text, deepAt);
      refused.push({ index, start, end, reason: tooDeepReason(at.line, at.column) });
    } else {
      const bytes = bytesOver(text, start, end, maxRecordBytes);
      if (bytes !== null) refused.push({ index, start, end, reason: tooLargeReason(bytes, maxRecordBytes) });
    }
    start = -1;
    deepAt = -1;
  };
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    if (depth === recordDepth) {
      if (c === 0x2c /* , */ || (c === 0x5d /* ] */ && arrayRoot)) {
        close(i);
      } else if (start < 0) {
        index += 1;
        start = i;
      }
    }
    if (c === 0x22 /* " */) {
      // Skip the string: to the next quote not escaped by an odd run of backslashes.
      let j = text.indexOf('"', i + 1);
      for (;;) {
        if (j < 0) break;
        let backslashes = 0;
        for (let k = j - 1; text.charCodeAt(k) === 0x5c; k--) backslashes++;
        if (backslashes % 2 === 0) break;
        j = text.indexOf('"', j + 1);
      }
      i = j < 0 ? n : j;
      continue;
    }
    if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > MAX_NESTING_DEPTH && deepAt < 0 && start >= 0) deepAt = i;
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
      // A top-level value ends with its closing bracket (JSON lines have no separator).
      if (!arrayRoot && depth === 0) close(i + 1);
    } else if (!arrayRoot && depth === 0 && start >= 0 && i + 1 < n) {
      // A top-level scalar: ends at the next whitespace (or the end of the text).
      const next = text.charCodeAt(i + 1);
      if (next === 0x20 || next === 0x0a || next === 0x0d || next === 0x09) close(i + 1);
    }
  }
  close(n);
  return { arrayRoot, refused };
}

/**
 * The text with each refused record replaced by `0` and spaces, line ends kept, so
 * that the rest parses as before (same offsets, lines and columns) without the
 * refused records ever being parsed.
 */
export function blankSpans(text: string, spans: readonly RefusedSpan[]): string {
  if (spans.length === 0) return text;
  const parts: string[] = [];
  let from = 0;
  for (const { start, end } of spans) {
    parts.push(text.slice(from, start), '0', text.slice(start + 1, end).replace(/[^\n\r]/g, ' '));
    from = end;
  }
  parts.push(text.slice(from));
  return parts.join('');
}
