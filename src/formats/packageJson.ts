// parsePackageJson: reads the JSON form of an item package without losing repeated keys.
//
// Why: the real service writes repeated, non-adjacent XML elements as duplicate JSON keys
// (fixtures/items/cortex/goethe.json repeats `Concept`, `Agent`, `Event`, `Place` in edm.RDF and `subject` in
// ProvidedCHO). JSON.parse keeps only the last occurrence; docs/decisions.md ("The JSON form")
// says we merge them into one array in document order, so no data is lost:
// - a key that occurs more than once in one object becomes one array holding all
//   occurrences' values in document order (an occurrence that is itself an array has its
//   elements spliced in), placed at the position of the first occurrence;
// - a key that occurs once keeps its value unchanged (an array stays an array);
// - a `$` key whose value is a whitespace-only string (also "") is dropped: whitespace
//   text carries no meaning (spec 2.4, docs/decisions.md "The JSON form").
// Everything else is as JSON.parse would give it. Syntax errors throw JsonSyntaxError with
// 1-based line and column, taken from jsonc-parser in strict JSON mode.

import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { isXmlWhitespace, setOwn } from './jsonValues.js';
import { blankSpans, DEFAULT_LIMITS, scanJsonRecords, type RecordLimits } from './recordLimits.js';

export class JsonSyntaxError extends Error {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  readonly reason: string;

  constructor(line: number, column: number, offset: number, reason: string) {
    super(`line ${line}, column ${column}: ${reason}`);
    this.name = 'JsonSyntaxError';
    this.line = line;
    this.column = column;
    this.offset = offset;
    this.reason = reason;
  }
}

const REASONS: Readonly<Record<string, string>> = {
  InvalidSymbol: 'Invalid symbol',
  InvalidNumberFormat: 'Invalid number format',
  PropertyNameExpected: 'Property name expected',
  ValueExpected: 'Value expected',
  ColonExpected: "':' expected",
  CommaExpected: "',' expected",
  CloseBraceExpected: "'}' expected",
  CloseBracketExpected: "']' expected",
  EndOfFileExpected: 'End of input expected',
  InvalidCommentToken: 'Comments are not allowed in JSON',
  UnexpectedEndOfComment: 'Unexpected end of comment',
  UnexpectedEndOfString: 'Unexpected end of string',
  UnexpectedEndOfNumber: 'Unexpected end of number',
  InvalidUnicode: 'Invalid unicode escape',
  InvalidEscapeCharacter: 'Invalid escape character',
  InvalidCharacter: 'Invalid character in string',
};

function syntaxError(text: string, error: ParseError): JsonSyntaxError {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < error.offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  const code = printParseErrorCode(error.error);
  return new JsonSyntaxError(line, error.offset - lineStart + 1, error.offset, REASONS[code] ?? code);
}

function toValue(node: Node): unknown {
  switch (node.type) {
    case 'object':
      return toObject(node);
    case 'array':
      return (node.children ?? []).map(toValue);
    default:
      return node.value;
  }
}

function toObject(node: Node): Record<string, unknown> {
  // key -> the single value, or (once repeated) the merged list.
  const entries = new Map<string, { value: unknown; merged: unknown[] | undefined }>();
  for (const property of node.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (keyNode === undefined || valueNode === undefined) continue; // only after syntax errors
    const key = String(keyNode.value);
    const value = toValue(valueNode);
    if (key === '$' && typeof value === 'string' && isXmlWhitespace(value)) continue;
    const entry = entries.get(key);
    if (entry === undefined) {
      entries.set(key, { value, merged: undefined });
      continue;
    }
    if (entry.merged === undefined) {
      entry.merged = Array.isArray(entry.value) ? (entry.value as unknown[]).slice() : [entry.value];
    }
    if (Array.isArray(value)) for (const item of value as unknown[]) entry.merged.push(item);
    else entry.merged.push(value);
  }
  const out: Record<string, unknown> = {};
  for (const [key, entry] of entries) setOwn(out, key, entry.merged ?? entry.value);
  return out;
}

/** A document (not one record of an array) that breaks a limit of src/formats/recordLimits.ts. */
export class JsonLimitError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'JsonLimitError';
  }
}

/**
 * Parses package JSON whose records are checked against the limits first
 * (src/formats/recordLimits.ts): a root array's elements that nest too deep or
 * are too large are never parsed and come back in `refused` by index; a single
 * document that does throws JsonLimitError.
 */
export function parsePackageJsonRecords(
  text: string,
  limits: RecordLimits = DEFAULT_LIMITS,
): { value: unknown; refused: Map<number, string> } {
  const scan = scanJsonRecords(text, limits);
  if (!scan.arrayRoot && scan.refused.length > 0) throw new JsonLimitError(scan.refused[0]!.reason);
  const value = parseChecked(blankSpans(text, scan.refused));
  return { value, refused: new Map(scan.refused.map((r) => [r.index, r.reason])) };
}

/** Parses an item package's JSON text, merging repeated keys (see the header). */
export function parsePackageJson(text: string): unknown {
  const { value, refused } = parsePackageJsonRecords(text, { maxRecordBytes: Number.MAX_SAFE_INTEGER });
  const first = refused.values().next();
  if (!first.done) throw new JsonLimitError(first.value);
  return value;
}

function parseChecked(text: string): unknown {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
  const first = errors[0];
  if (first !== undefined) throw syntaxError(text, first);
  if (tree === undefined) throw new JsonSyntaxError(1, 1, 0, 'Value expected');
  return toValue(tree);
}
