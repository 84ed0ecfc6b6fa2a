// Dropping the DOCTYPE declaration of an XML document on the way in.
//
// Why: a package is stored and served as the cortex XML it was loaded from
// (docs/api.md, `/items/{id}/aip`). We never resolve a DTD (xmlLexical.ts refuses
// entities it declares), but a DOCTYPE kept in the stored text would be handed to every
// client's XML parser, and one that declares external entities (XXE) or nested ones
// ("billion laughs") is an attack on those parsers. No package needs one, so it is
// dropped at load and the load report says so (docs/cli.md "Limits").

export interface DroppedDoctype {
  /** The document without its DOCTYPE declaration. */
  xml: string;
  /** What the report says was dropped. */
  note: string;
}

/** The offset after the quoted literal starting at `at`, or -1 when it does not end. */
function afterQuoted(xml: string, at: number): number {
  const end = xml.indexOf(xml[at]!, at + 1);
  return end < 0 ? -1 : end + 1;
}

/** The offset after `close`, searched from `from`, or -1. */
function after(xml: string, from: number, close: string): number {
  const end = xml.indexOf(close, from);
  return end < 0 ? -1 : end + close.length;
}

/**
 * The offset after the DOCTYPE declaration starting at `lt`, or -1 when it does not end.
 * Its internal subset (`[...]`) may hold quoted literals, comments and processing
 * instructions, whose `]` and `>` do not end it (XML 1.0, section 2.8).
 */
export function doctypeEnd(xml: string, lt: number): number {
  let inSubset = false;
  for (let i = lt + '<!DOCTYPE'.length; i < xml.length;) {
    const c = xml[i];
    if (c === '"' || c === "'") i = afterQuoted(xml, i);
    else if (inSubset && xml.startsWith('<!--', i)) i = after(xml, i + 4, '-->');
    else if (inSubset && xml.startsWith('<?', i)) i = after(xml, i + 2, '?>');
    else if (c === '[' && !inSubset) {
      inSubset = true;
      i += 1;
    } else if (c === ']' && inSubset) {
      inSubset = false;
      i += 1;
    } else if (c === '>' && !inSubset) return i + 1;
    else i += 1;
    if (i < 0) return -1;
  }
  return -1;
}

/** The offset of the DOCTYPE declaration in the prolog, or -1 (none, or the root comes first). */
function doctypeStart(xml: string): number {
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (i < xml.length && ' \t\r\n'.includes(xml[i]!)) i += 1;
    if (xml.startsWith('<!DOCTYPE', i)) return i;
    if (xml.startsWith('<?', i)) i = after(xml, i + 2, '?>');
    else if (xml.startsWith('<!--', i)) i = after(xml, i + 4, '-->');
    else return -1;
    if (i < 0) return -1;
  }
}

/** What the report shows of a declaration: its start, and how many entities it declares. */
function describeDoctype(doctype: string): string {
  const entities = doctype.match(/<!ENTITY/g)?.length ?? 0;
  const head = doctype.length > 60 ? `${doctype.slice(0, 60).replace(/\s+/g, ' ')}…` : doctype.replace(/\s+/g, ' ');
  return `${head}${entities > 0 ? `, declaring ${entities} ${entities === 1 ? 'entity' : 'entities'}` : ''}`;
}

export function doctypeNote(doctype: string): string {
  return `its DOCTYPE declaration (${describeDoctype(doctype)}) was dropped: items are stored and served without one, and no DTD is read`;
}

/**
 * The document without its DOCTYPE declaration (and the line break after it), or
 * null when it has none. A declaration that
 * does not end is left for the parser to report.
 */
export function dropDoctype(xml: string): DroppedDoctype | null {
  const start = doctypeStart(xml);
  if (start < 0) return null;
  const end = doctypeEnd(xml, start);
  if (end < 0) return null;
  const lineBreak = /^[ \t]*\r?\n/.exec(xml.slice(end, end + 64));
  const cut = lineBreak === null ? end : end + lineBreak[0].length;
  return { xml: xml.slice(0, start) + xml.slice(cut), note: doctypeNote(xml.slice(start, end)) };
}
