// EdmStream: saxes events in, the EDM-relevant parts of a document out, one rdf:RDF
// element at a time, so that memory is bounded by one rdf:RDF element and not by the file
// (a harvest or a dump may be gigabytes).
//
// It finds, wherever they are in the document (the root, under any wrapper element, or in
// an OAI-PMH response's `metadata`):
// - each rdf:RDF element: its start tag and the elements directly inside it (the
//   "descriptions": edm:ProvidedCHO, ore:Proxy, ore:Aggregation, edm:WebResource,
//   contextual classes), each as an XmlElement tree with its source text, position and
//   rdf:about. Grouping them into records is groupDescriptions.ts's job.
// - OAI-PMH `record`, `header` and `error` elements (OAI-PMH 2.0, sections 2.5 and 3.6).
//
// Broken XML: saxes reports the first well-formedness error; the stream stops there and
// reports one fatal unit. It does not try to recover to the next record: after such an
// error the element nesting is unknown, so a restart could attach descriptions to the
// wrong record or miss a record silently; the operator is told exactly where to fix the
// file instead. Records of rdf:RDF elements completed before the error were already handed
// out. An undeclared namespace prefix is not fatal for the file: it spoils only the
// description it is in (or is ignored outside rdf:RDF), since saxes reads on past it.
//
// Limit: a description whose text passes maxRecordBytes is dropped while it is read (tree
// and text), so one oversized element cannot exhaust memory; it is marked `oversized`
// and the records that contain it are reported by recordAssembler.ts.

import { SaxesParser, type SaxesTagNS } from 'saxes';
import { isRdfRoot, OAI_NS } from './edmVocabulary.js';
import { readOaiError, readOaiHeader } from './oaiEnvelope.js';
import { OpenRdf } from './openRdf.js';
import { appendText, elementFromTag, type XmlElement } from '../../formats/xmlTree.js';
import { SourceText, type LineColumn } from './sourceText.js';
import { noEdm, notXml, saxesReason, tooDeep, unboundPrefix, undeclaredPrefix, withLostWork } from './streamMessages.js';
import { MAX_NESTING_DEPTH } from '../../formats/recordLimits.js';
import type { StreamUnit } from './streamUnits.js';
import type { OaiHeader } from './types.js';

type Role = 'plain' | 'rdf' | 'description' | 'descendant' | 'oaiRecord' | 'oaiCapture' | 'oaiCaptureDescendant';

interface Frame {
  role: Role;
  name: string;
  scope: ReadonlyMap<string, string>;
  /** The element being built (descriptions, OAI header/error and everything inside them). */
  element: XmlElement | null;
  /** Where an OAI header or error starts. */
  at?: LineColumn;
}

interface OpenOaiRecord {
  header: OaiHeader | null;
  sawRdf: boolean;
  line: number;
  column: number;
}

const NO_SCOPE: ReadonlyMap<string, string> = new Map();

/** Thrown out of saxes to stop it at once (saxes has no abort, and reading on costs time). */
const STOP = Symbol('stop reading');

export class EdmStream {
  private readonly parser = new SaxesParser({ xmlns: true, position: true });
  private readonly source = new SourceText();
  private readonly units: StreamUnit[] = [];
  private readonly frames: Frame[] = [];
  private stopped = false;
  private tagStart = 0;
  /** End of the last markup seen; a `<` at or after it starts a tag not yet complete. */
  private lastMarkupEnd = 0;
  private rdf: OpenRdf | null = null;
  private oaiRecord: OpenOaiRecord | null = null;
  private root: { name: string; local: string; namespace: string } | null = null;
  private foundEdm = false;
  private pendingProblems: string[] = [];
  private firstProblem: string | null = null;

  constructor(private readonly maxRecordBytes: number) {
    const p = this.parser;
    p.on('opentagstart', () => {
      this.tagStart = this.source.lastIndexOf('<', p.position);
    });
    p.on('opentag', (tag) => this.open(tag));
    p.on('closetag', (tag) => this.close(tag));
    p.on('text', (text) => this.text(text));
    p.on('cdata', (text) => {
      this.text(text);
      this.lastMarkupEnd = p.position;
    });
    const markup = (): void => {
      this.lastMarkupEnd = p.position;
    };
    p.on('comment', markup);
    p.on('processinginstruction', markup);
    p.on('doctype', () => {
      // The declaration starts at the first '<' after the markup before it (only white space may come between).
      const from = this.lastMarkupEnd;
      const text = this.source.slice(from, p.position);
      const start = from + Math.max(0, text.indexOf('<'));
      this.units.push({ kind: 'doctype', doctype: this.source.slice(start, p.position), ...this.source.lineColumn(start) });
      markup();
    });
    p.on('xmldecl', markup);
    p.on('error', (error) => this.error(error));
  }

  /** Characters of input held for the record being read (the streaming bound, for tests). */
  get heldChars(): number {
    return this.source.held;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Line and column (1-based) of the character saxes reads next. */
  get line(): number {
    return this.parser.line;
  }

  get column(): number {
    return this.parser.column + 1;
  }

  write(text: string): void {
    if (this.stopped) return;
    this.source.append(text);
    try {
      this.parser.write(text);
    } catch (e) {
      if (e !== STOP) throw e;
    }
    if (!this.stopped) this.release();
  }

  /** Ends the input: final well-formedness checks, and "no EDM here" when nothing was found. */
  end(): void {
    if (this.stopped) return;
    this.parser.close();
    if (this.stopped || this.foundEdm) return;
    const rootIsOai = this.root?.namespace === OAI_NS && this.root.local === 'OAI-PMH';
    if (rootIsOai) return; // an OAI-PMH response with an empty list: nothing to report
    this.units.push({ kind: 'error', line: 1, column: 1, reason: noEdm(this.root, this.firstProblem) });
  }

  /** The units completed since the last call. */
  take(): StreamUnit[] {
    return this.units.splice(0, this.units.length);
  }

  /** Stops reading (for a failure found outside the XML, such as bad UTF-8). */
  stopWith(reason: string, line: number, column: number): void {
    if (this.stopped) return;
    const at = { line, column: Math.max(1, column) };
    if (this.rdf !== null) {
      // The records of this rdf:RDF completed before the break are the assembler's to hand out.
      this.units.push({ kind: 'break', reason, ...at, rdf: this.rdf.unit, open: this.rdf.current, oai: this.oaiRecord?.header ?? null });
    } else {
      this.units.push({ kind: 'error', reason: this.root === null ? reason : withLostWork(reason, null), ...at });
    }
    this.halt();
  }

  private halt(): void {
    this.stopped = true;
    this.rdf = null;
    this.oaiRecord = null;
    this.frames.length = 0;
  }

  private error(error: Error): void {
    if (this.stopped) return;
    const p = this.parser;
    let reason = saxesReason(error.message);
    const prefix = unboundPrefix(reason);
    if (prefix !== null) {
      this.pendingProblems.push(undeclaredPrefix(prefix, { line: p.line, column: p.column }));
      return;
    }
    if (this.root === null) {
      this.stopWith(notXml(reason), p.line, p.column);
      return;
    }
    let at = { line: p.line, column: p.column };
    if (reason === 'unexpected close tag') {
      // saxes stops at the end tag's `>`; point at its `<` and show it.
      const start = this.source.lastIndexOf('<', p.position);
      if (start !== -1 && this.source.canLocate(start)) {
        reason = `unexpected end tag ${this.source.slice(start, p.position)}: an element inside it is not closed, or the end tag is misspelt`;
        at = this.source.lineColumn(start);
      }
    }
    this.stopWith(`XML is not well-formed (${reason})`, at.line, at.column);
  }

  /** Drops the text no longer needed: all of it, except a tag in progress and the open record. */
  private release(): void {
    // Not parser.position: after write() returns, saxes 6 counts the last chunk twice
    // there (it is right only inside event handlers). Everything written was read,
    // except a trailing CR or half surrogate pair that saxes carries over, which is never
    // the start of anything kept.
    const position = this.source.end;
    let keep = position;
    const lastLt = this.source.lastIndexOf('<');
    if (lastLt >= this.lastMarkupEnd) keep = lastLt;
    const rdf = this.rdf;
    if (rdf !== null) {
      const current = rdf.current;
      if (current !== null && !current.oversized && position - current.start > this.maxRecordBytes) this.drop(rdf);
      keep = Math.min(keep, rdf.neededFrom(position));
    }
    this.source.discardBefore(keep);
  }

  /** Drops the description being read, and stops building its tree. */
  private drop(rdf: OpenRdf): void {
    rdf.dropCurrent();
    for (const frame of this.frames) if (frame.role === 'description' || frame.role === 'descendant') frame.element = null;
  }

  private scopeFor(tag: SaxesTagNS, outer: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
    const declared = Object.entries(tag.ns);
    if (declared.length === 0) return outer;
    const scope = new Map(outer);
    for (const [prefix, uri] of declared) scope.set(prefix, uri);
    return scope;
  }

  private open(tag: SaxesTagNS): void {
    if (this.stopped) return;
    const p = this.parser;
    this.lastMarkupEnd = p.position;
    if (this.frames.length >= MAX_NESTING_DEPTH) {
      // saxes resolves each namespace prefix through every open element: stop before that gets slow.
      this.stopWith(tooDeep(MAX_NESTING_DEPTH), p.line, p.column);
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- a sentinel that unwinds saxes' callbacks; caught where the parse is called
      throw STOP;
    }
    const parent = this.frames[this.frames.length - 1];
    const scope = this.scopeFor(tag, parent?.scope ?? NO_SCOPE);
    const start = this.tagStart;
    this.root ??= { name: tag.name, local: tag.local, namespace: tag.uri };
    const problems = this.pendingProblems;
    this.pendingProblems = [];
    const frame: Frame = { role: 'plain', name: tag.name, scope, element: null };

    if (
      parent?.role === 'description' ||
      parent?.role === 'descendant' ||
      parent?.role === 'oaiCapture' ||
      parent?.role === 'oaiCaptureDescendant'
    ) {
      frame.role = parent.role === 'description' || parent.role === 'descendant' ? 'descendant' : 'oaiCaptureDescendant';
      if (parent.element !== null) {
        frame.element = elementFromTag(tag);
        parent.element.children.push(frame.element);
      }
      if (frame.role === 'descendant') this.rdf?.current?.problems.push(...problems);
    } else if (parent?.role === 'rdf' && this.rdf !== null) {
      frame.role = 'description';
      frame.element = elementFromTag(tag);
      this.rdf.startDescription(frame.element, start, problems);
    } else if (isRdfRoot(tag.uri, tag.local)) {
      frame.role = 'rdf';
      this.rdf = new OpenRdf(this.source, tag, start, p.position, parent?.scope ?? NO_SCOPE, problems);
      this.foundEdm = true;
      if (this.oaiRecord !== null) this.oaiRecord.sawRdf = true;
    } else {
      if (problems.length > 0) this.firstProblem ??= problems[0] ?? null;
      if (tag.uri === OAI_NS && tag.local === 'record') {
        frame.role = 'oaiRecord';
        this.oaiRecord = { header: null, sawRdf: false, ...this.source.lineColumn(start) };
      } else if (tag.uri === OAI_NS && (tag.local === 'header' || tag.local === 'error')) {
        frame.role = 'oaiCapture';
        frame.element = elementFromTag(tag);
        frame.at = this.source.lineColumn(start);
        this.foundEdm = true;
      }
    }
    this.frames.push(frame);
  }

  /**
   * saxes, on a mismatched end tag, reports `closetag` for each element it pops before it
   * reports the error; those elements were not really closed, so they must not complete a
   * record. The end tag as written tells them apart.
   */
  private closedAsWritten(tag: SaxesTagNS): boolean {
    if (tag.isSelfClosing) return true;
    const end = this.parser.position;
    const text = this.source.slice(this.source.lastIndexOf('<', end), end);
    return text.startsWith(`</${tag.name}`) && /^\s*>$/.test(text.slice(tag.name.length + 2));
  }

  private close(tag: SaxesTagNS): void {
    if (this.stopped) return;
    const frame = this.frames.pop();
    const end = this.parser.position;
    this.lastMarkupEnd = end;
    if (frame === undefined || frame.role === 'plain' || frame.role === 'descendant' || frame.role === 'oaiCaptureDescendant') return;
    if (!this.closedAsWritten(tag)) return;
    switch (frame.role) {
      case 'description': {
        const rdf = this.rdf!;
        if (!rdf.current!.oversized && end - rdf.current!.start > this.maxRecordBytes) this.drop(rdf);
        rdf.endDescription(end);
        return;
      }
      case 'rdf': {
        const unit = this.rdf!.end(tag.isSelfClosing ? null : this.source.lastIndexOf('<', end), end);
        this.units.push({ kind: 'rdf', rdf: unit, oai: this.oaiRecord?.header ?? null });
        this.rdf = null;
        return;
      }
      case 'oaiRecord': {
        const record = this.oaiRecord;
        this.oaiRecord = null;
        if (record !== null && !record.sawRdf && record.header?.deleted !== true) {
          this.units.push({ kind: 'oaiRecordWithoutRdf', oai: record.header, line: record.line, column: record.column });
        }
        return;
      }
      case 'oaiCapture': {
        const element = frame.element!;
        // A deleted record is reported where its <record> starts; an error where it is written.
        const at = element.local === 'header' && this.oaiRecord !== null ? this.oaiRecord : frame.at!;
        if (element.local === 'error') {
          this.units.push({ kind: 'error', reason: readOaiError(element), line: at.line, column: at.column });
          return;
        }
        const header = readOaiHeader(element);
        if (this.oaiRecord !== null) this.oaiRecord.header = header;
        if (header.deleted) this.units.push({ kind: 'deleted', oai: header, line: at.line, column: at.column });
        return;
      }
    }
  }

  private text(text: string): void {
    if (this.stopped) return;
    const top = this.frames[this.frames.length - 1];
    if (top?.element != null) appendText(top.element, text);
  }
}
