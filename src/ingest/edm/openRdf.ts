// OpenRdf: the rdf:RDF element EdmStream is reading, collected description by
// description, with the text between descriptions, so that a record's source text can be
// given exactly as written (EdmRecord.sourceXml) while only this one element is held.

import type { SaxesTagNS } from 'saxes';
import { descriptionKind, rdfAttribute } from './edmVocabulary.js';
import { elementFromTag, type XmlElement } from '../../formats/xmlTree.js';
import type { SourceText } from './sourceText.js';
import type { RdfDescription, RdfUnit } from './streamUnits.js';

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

/**
 * Adds `xmlns` declarations to a start tag as written, before its `>` or `/>`. Why: an
 * rdf:RDF inside an OAI-PMH response or a cortex package (`ns3:RDF`, ns3 declared on
 * `cortex`) relies on declarations of outer elements; its source text must stand alone.
 */
function withDeclarations(startTag: string, declarations: ReadonlyMap<string, string>): string {
  if (declarations.size === 0) return startTag;
  const text = [...declarations]
    .map(([prefix, uri]) => ` ${prefix === '' ? 'xmlns' : `xmlns:${prefix}`}="${escapeAttribute(uri)}"`)
    .join('');
  const cut = startTag.endsWith('/>') ? startTag.length - 2 : startTag.length - 1;
  return startTag.slice(0, cut) + text + startTag.slice(cut);
}

export class OpenRdf {
  readonly unit: RdfUnit;
  /** The description being read, if any. */
  current: RdfDescription | null = null;
  /** Where the text not yet given to a description or a gap starts. */
  private pendingFrom: number;

  /**
   * @param start offset of the start tag's `<`; @param end offset just past its `>`
   * @param outer the namespace bindings in scope outside the element
   */
  constructor(
    private readonly source: SourceText,
    tag: SaxesTagNS,
    start: number,
    end: number,
    outer: ReadonlyMap<string, string>,
    problems: string[],
  ) {
    const inherited = new Map([...outer].filter(([prefix]) => !Object.hasOwn(tag.ns, prefix)));
    this.unit = {
      shell: elementFromTag(tag),
      openTag: withDeclarations(source.slice(start, end), inherited),
      closeTag: '',
      content: [],
      ...source.lineColumn(start),
      problems,
    };
    this.pendingFrom = end;
  }

  startDescription(element: XmlElement, start: number, problems: string[]): void {
    const gap = this.source.slice(this.pendingFrom, start);
    if (gap !== '') this.unit.content.push(gap);
    this.current = {
      kind: descriptionKind(element.namespace, element.local),
      about: rdfAttribute(element, 'about'),
      element,
      source: '',
      start,
      ...this.source.lineColumn(start),
      oversized: false,
      problems,
    };
  }

  /** Forgets the current description's tree and text: it is larger than a record may be. */
  dropCurrent(): void {
    if (this.current === null) return;
    this.current.oversized = true;
    this.current.element = null;
  }

  endDescription(end: number): void {
    const description = this.current!;
    if (!description.oversized) description.source = this.source.slice(description.start, end);
    this.unit.content.push(description);
    this.current = null;
    this.pendingFrom = end;
  }

  /** The earliest offset still needed, given that everything up to `position` was read. */
  neededFrom(position: number): number {
    if (this.current === null) return this.pendingFrom;
    return this.current.oversized ? position : this.current.start;
  }

  /** @param closeStart offset of the end tag's `<`, or null for `<rdf:RDF/>` */
  end(closeStart: number | null, end: number): RdfUnit {
    if (closeStart !== null) {
      const trailing = this.source.slice(this.pendingFrom, closeStart);
      if (trailing !== '') this.unit.content.push(trailing);
      this.unit.closeTag = this.source.slice(closeStart, end);
    }
    return this.unit;
  }
}
