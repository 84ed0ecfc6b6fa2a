// Where and why a document is not well-formed, for the message an operator reads.
//
// parseXml (xmlTree.ts) finds out that a document is broken with saxes, which is fast
// but terse ("undefined entity.", reported after the offending token). Documents are
// rarely broken, so when one is, it is checked again here, with the lexical scan of
// xmlLexical.ts and fast-xml-parser's validator, which name the entity, the tags and the
// exact place ("Undefined entity '&nbsp;'", "closing tag 'c' ... expected 'b'").

import { XMLValidator } from 'fast-xml-parser';
import { findLexicalProblem } from './xmlLexical.js';

export interface XmlProblem {
  line: number;
  column: number;
  reason: string;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** The first problem these checks see in `xml` (CR LF already read as LF), or null. */
export function findXmlProblem(xml: string): XmlProblem | null {
  const lexical = findLexicalProblem(xml);
  const lexicalAt = lexical === null ? null : { ...lineAndColumn(xml, lexical.offset), reason: lexical.reason };
  const validation = XMLValidator.validate(xml, { allowBooleanAttributes: false });
  let structural: XmlProblem | null = null;
  // 'InvalidXml' is a whole-document verdict (for example unclosed tags, reported at 1:1);
  // the lexical scan gives a better position for those, so prefer it when it has one.
  if (validation !== true && !(validation.err.code === 'InvalidXml' && lexicalAt !== null)) {
    structural = { line: validation.err.line, column: validation.err.col ?? 1, reason: validation.err.msg };
  }
  return (
    [lexicalAt, structural].filter((p): p is XmlProblem => p !== null).sort((a, b) => a.line - b.line || a.column - b.column)[0] ?? null
  );
}
