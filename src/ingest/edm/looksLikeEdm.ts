// looksLikeEdm: whether `ingest items` should hand a file to the EDM reader, from its first
// bytes alone (the router reads a head, not the file).
//
// True when the first element after the prolog (XML declaration, comments, processing
// instructions, doctype) is rdf:RDF (RDF/XML, one or many records) or OAI-PMH (an OAI-PMH
// 2.0 response, section 3.2). Also true for a wrapper element that is not a cortex package
// when an rdf:RDF start tag appears within the head, since the reader takes many rdf:RDF
// under any wrapper: otherwise such a file would go to the cortex reader and
// fail. The namespace is checked where the head shows the declaration; the cortex package
// also holds an rdf:RDF (inside `edm`) and must not match.

import { NS } from '../../formats/namespaces.js';
import { doctypeEnd } from '../../formats/xmlDoctype.js';

/** Enough of a file's first bytes to see its first element past prolog and comments. */
export const EDM_HEAD_BYTES = 16 * 1024;

const NAME = /^<([^\s/>:!?]+:)?([^\s/>:!?]+)/;

function skipProlog(text: string): number {
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end === -1) return text.length;
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end === -1) return text.length;
      i = end + 3;
    } else if (text.startsWith('<!DOCTYPE', i)) {
      // Its internal subset may hold '>' and ']' in literals and comments.
      const end = doctypeEnd(text, i);
      if (end === -1) return text.length;
      i = end;
    } else {
      return i;
    }
  }
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The namespace a start tag binds to a prefix ("" = default), or undefined when not declared in it. */
function declaredIn(startTag: string, prefix: string): string | undefined {
  const attribute = prefix === '' ? 'xmlns' : `xmlns:${escapeRegExp(prefix)}`;
  const match = new RegExp(`\\s${attribute}\\s*=\\s*(["'])(.*?)\\1`).exec(startTag);
  return match?.[2];
}

export function looksLikeEdm(head: string): boolean {
  const text = head.replace(/^\uFEFF/, '');
  const start = skipProlog(text);
  const match = NAME.exec(text.slice(start));
  if (match === null) return false;
  const prefix = (match[1] ?? '').replace(/:$/, '');
  const local = match[2]!;
  const tagEnd = text.indexOf('>', start);
  const startTag = text.slice(start, tagEnd === -1 ? text.length : tagEnd + 1);
  const namespace = declaredIn(startTag, prefix);

  if (local === 'OAI-PMH') return true;
  if (local === 'RDF') return namespace === undefined ? prefix === 'rdf' : namespace === NS.rdf;
  if (namespace === NS.cortex) return false;
  // A wrapper: an rdf:RDF start tag further on, with a prefix bound to RDF in the head.
  const rdfPrefixes = [...text.matchAll(/\sxmlns:([^\s=]+)\s*=\s*(["'])(.*?)\2/g)].filter((m) => m[3] === NS.rdf).map((m) => m[1]!);
  return rdfPrefixes.some((p) => new RegExp(`<${escapeRegExp(p)}:RDF[\\s/>]`).test(text.slice(start + 1)));
}
