// The reasons EdmStream gives for problems of a file as a whole: each says what happened,
// what was not read because of it, and what to do (issue #4: "each reported clearly").

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

/** A fatal problem: everything after it is lost, and so is the rdf:RDF open at that point. */
export function withLostWork(reason: string, openRdf: LineColumn | null): string {
  const open = openRdf === null ? '' : `, nor the records of the rdf:RDF element open at this point (it starts at line ${openRdf.line}, column ${openRdf.column})`;
  return `${reason}; records after this point in the file were not read${open}. Fix the file here and load it again`;
}

export function noEdm(root: { name: string; namespace: string } | null, note: string | null): string {
  const rootText = root === null ? 'none' : `<${root.name}>${root.namespace === '' ? ' in no namespace' : ` in namespace ${root.namespace}`}`;
  return `no EDM found: the document has no rdf:RDF element (namespace http://www.w3.org/1999/02/22-rdf-syntax-ns#) and is not an OAI-PMH response (its root element is ${rootText}). Give EDM RDF/XML records, one or many per file, or OAI-PMH responses carrying them.${note === null ? '' : ` Note: ${note}.`}`;
}
