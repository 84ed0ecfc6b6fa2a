// The reasons EdmStream gives for problems of a file as a whole: each says what happened,
// what was not read because of it, and what to do (docs/decisions.md "Bad records").

import type { LineColumn } from './sourceText.js';

/** saxes' message without its "line:column: " prefix and final full stop. */
export function saxesReason(message: string): string {
  return message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
}

/** The prefix named by saxes' "unbound namespace prefix" error, or null for any other error. */
export function unboundPrefix(reason: string): string | null {
  return /^unbound namespace prefix: "(.*)"$/.exec(reason)?.[1] ?? null;
}

export function undeclaredPrefix(prefix: string, at: LineColumn): string {
  return `the namespace prefix '${prefix}' is not declared (line ${at.line}, column ${at.column}): declare it with xmlns:${prefix}="..." on that element or an enclosing one`;
}

export function notXml(reason: string): string {
  return `the input is empty or not XML (${reason}): expected EDM RDF/XML or an OAI-PMH response`;
}

/**
 * A fatal problem: everything after it is lost, and so is the record being read at that
 * point (the records of its rdf:RDF completed before it are kept: recordAssembler.ts).
 */
export function withLostWork(reason: string, lostRecord: LineColumn | null): string {
  const open =
    lostRecord === null
      ? ''
      : `, nor the record being read at this point (it starts at line ${lostRecord.line}, column ${lostRecord.column})`;
  return `${reason}; records after this point in the file were not read${open}. Fix the file here and load it again`;
}

export function tooDeep(limit: number): string {
  return `elements nested deeper than ${limit} levels; no EDM record nests that deep: check how the file was made`;
}

export function noEdm(root: { name: string; namespace: string } | null, note: string | null): string {
  const rootText =
    root === null ? 'none' : `<${root.name}>${root.namespace === '' ? ' in no namespace' : ` in namespace ${root.namespace}`}`;
  return `no EDM found: the document has no rdf:RDF element (namespace http://www.w3.org/1999/02/22-rdf-syntax-ns#) and is not an OAI-PMH response (its root element is ${rootText}). Give EDM RDF/XML records, one or many per file, or OAI-PMH responses carrying them.${note === null ? '' : ` Note: ${note}.`}`;
}
