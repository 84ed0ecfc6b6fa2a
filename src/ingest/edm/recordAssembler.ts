// RecordAssembler: the parts EdmStream found, as the reader's results: records in the DDB
// form, deleted OAI-PMH records, and errors that say where and what to fix.
//
// Numbering: every record the operator would count gets the next number, whether it is
// read, deleted or rejected: one per edm:ProvidedCHO, one per rdf:RDF without a CHO, one
// per set of proxies/aggregations that names a CHO not there, one per OAI-PMH record
// without EDM metadata, one per deleted OAI-PMH record. Problems of the file as a whole
// (broken XML, an OAI-PMH error response) are not records and are placed by line and
// column only. Within one rdf:RDF, results come in document order.
//
// Checks per record, each a rejection with the rest of the input read on
// (docs/decisions.md "Bad records"):
// - no edm:ProvidedCHO, or a CHO without rdf:about: EDM identifies the object by that URI;
// - the same CHO URI twice in one input: the second is rejected, naming the first's
//   position, since the store could only keep one of them and which one is not knowable
//   here. The URIs seen are remembered for the whole input (about 100 bytes a record);
// - an undeclared namespace prefix inside the record (EdmStream);
// - the record's source text larger than maxRecordBytes (UTF-8 bytes).

import { groupDescriptions } from './groupDescriptions.js';
import type { RdfDescription, RdfUnit, StreamUnit } from './streamUnits.js';
import { normaliseEdm } from './normaliseEdm.js';
import { doctypeNote } from '../../formats/xmlDoctype.js';
import { withLostWork } from './streamMessages.js';
import type { EdmReadResult, OaiHeader } from './types.js';

const KIND_NAMES: Readonly<Record<RdfDescription['kind'], string>> = {
  cho: 'edm:ProvidedCHO',
  proxy: 'ore:Proxy',
  aggregation: 'ore:Aggregation',
  europeanaAggregation: 'edm:EuropeanaAggregation',
  context: 'element',
};

function describe(d: RdfDescription): string {
  return `${KIND_NAMES[d.kind]}${d.about === null ? '' : ` "${d.about}"`} (line ${d.line}, column ${d.column})`;
}

/** "a", "a and b", "a, b and c". */
function listed(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function withOai<T extends EdmReadResult>(result: T, oai: OaiHeader | null): T {
  return oai === null ? result : { ...result, oai };
}

/** A record's number (and OAI identifier), and how to write a position in it. */
interface Place {
  label: string;
  at: (line: number, column: number) => string;
}

interface Pending {
  start: number;
  make: (place: Place) => EdmReadResult;
}

export class RecordAssembler {
  private count = 0;
  /** CHO URI -> where it was first seen, as "record N (line L, column C)". */
  private readonly seen = new Map<string, string>();

  constructor(private readonly maxRecordBytes: number) {}

  *results(unit: StreamUnit): Generator<EdmReadResult> {
    switch (unit.kind) {
      case 'error':
        yield { kind: 'error', reason: unit.reason, position: `line ${unit.line}, column ${unit.column}` };
        return;
      case 'doctype':
        yield { kind: 'note', note: doctypeNote(unit.doctype), position: `line ${unit.line}, column ${unit.column}` };
        return;
      case 'deleted':
        yield { kind: 'deleted', oai: unit.oai, position: this.next(unit.oai).at(unit.line, unit.column) };
        return;
      case 'oaiRecordWithoutRdf':
        yield withOai(
          {
            kind: 'error',
            position: this.next(unit.oai).at(unit.line, unit.column),
            reason:
              'this OAI-PMH record has no rdf:RDF in its metadata, so it is not EDM: harvest with the metadataPrefix under which the repository gives EDM (often "edm" or "rdf")',
          },
          unit.oai,
        );
        return;
      case 'rdf':
        yield* this.fromRdf(unit.rdf, unit.oai, false);
        return;
      case 'break':
        yield* this.fromBreak(unit);
    }
  }

  /**
   * An rdf:RDF cut off by a break (docs/cli.md): its records complete before the break
   * are kept. Records in one rdf:RDF follow one another, each starting with (or
   * around) its edm:ProvidedCHO, so the record being read at the break is the one of
   * the ProvidedCHO open there, or else of the last ProvidedCHO begun: it may go on
   * past the break and is lost with the rest of the file; the descriptions before its
   * start form the complete records.
   */
  private *fromBreak(unit: Extract<StreamUnit, { kind: 'break' }>): Generator<EdmReadResult> {
    const descriptions = unit.rdf.content.filter((c): c is RdfDescription => typeof c !== 'string');
    const lastCho = unit.open?.kind === 'cho' ? unit.open : descriptions.filter((d) => d.kind === 'cho').at(-1);
    const lost: RdfDescription | RdfUnit = lastCho ?? unit.open ?? unit.rdf;
    const complete = lastCho === undefined ? [] : descriptions.filter((d) => d.start < lastCho.start);
    if (complete.some((d) => d.kind === 'cho')) {
      yield* this.fromRdf({ ...unit.rdf, content: complete, closeTag: `</${unit.rdf.shell.name}>` }, unit.oai, true);
    }
    const reason = withLostWork(unit.reason, lost);
    yield withOai({ kind: 'error', reason, position: this.next(unit.oai).at(unit.line, unit.column) }, unit.oai);
  }

  /** Takes the next record number. */
  private next(oai: OaiHeader | null): Place {
    this.count += 1;
    const label =
      oai === null || oai.identifier === '' ? `record ${this.count}` : `record ${this.count} (OAI identifier ${oai.identifier})`;
    return { label, at: (line, column) => `${label}, line ${line}, column ${column}` };
  }

  /** @param partial the rdf:RDF was cut off: the complete records only, each standing alone */
  private *fromRdf(unit: RdfUnit, oai: OaiHeader | null, partial: boolean): Generator<EdmReadResult> {
    const descriptions = unit.content.filter((c): c is RdfDescription => typeof c !== 'string');
    const { groups, unplaced } = groupDescriptions(descriptions);
    if (groups.length === 0) {
      yield withOai(
        {
          kind: 'error',
          position: this.next(oai).at(unit.line, unit.column),
          reason:
            'this rdf:RDF has no edm:ProvidedCHO (an element ProvidedCHO in namespace http://www.europeana.eu/schemas/edm/), and every EDM record needs one: add it, or check the namespace bound to its prefix',
        },
        oai,
      );
      return;
    }

    const pending: Pending[] = [];
    for (const group of groups) {
      const { cho, members } = group;
      const whole = !partial && groups.length === 1 && unplaced.length === 0;
      pending.push({ start: cho.start, make: (place) => this.fromGroup(unit, cho, members, whole, place, oai) });
    }
    // Proxies and aggregations without their CHO: one rejected record per object they name.
    for (const { uri, members } of unplaced) {
      const first = members[0]!;
      pending.push({
        start: first.start,
        make: (place) =>
          withOai(
            {
              kind: 'error',
              position: place.at(first.line, first.column),
              reason: `${listed(members.map(describe))} ${members.length === 1 ? 'describes' : 'describe'} ${uri === '' ? 'no object (no ore:proxyFor or edm:aggregatedCHO)' : `"${uri}"`}, but this rdf:RDF has no edm:ProvidedCHO with that rdf:about: add the edm:ProvidedCHO, or correct ore:proxyFor / edm:aggregatedCHO`,
            },
            oai,
          ),
      });
    }
    pending.sort((a, b) => a.start - b.start);
    for (const item of pending) yield item.make(this.next(oai));
  }

  private fromGroup(
    unit: RdfUnit,
    cho: RdfDescription,
    members: RdfDescription[],
    whole: boolean,
    place: Place,
    oai: OaiHeader | null,
  ): EdmReadResult {
    const position = place.at(cho.line, cho.column);
    const reject = (reason: string): EdmReadResult => withOai({ kind: 'error', position, reason }, oai);
    if (cho.about === null) {
      return reject('the edm:ProvidedCHO has no rdf:about; EDM identifies each object by its rdf:about URI: add one');
    }
    const first = this.seen.get(cho.about);
    if (first !== undefined) {
      return reject(
        `edm:ProvidedCHO "${cho.about}" was already read as ${first}; this second description was skipped: give each object its own rdf:about, or remove the duplicate`,
      );
    }
    this.seen.set(cho.about, `${place.label} (line ${cho.line}, column ${cho.column})`);

    const problems = [...unit.problems, ...members.flatMap((m) => m.problems)];
    if (problems.length > 0) return reject(`${problems.join('; ')}; the record was skipped`);
    const tooBig = members.find((m) => m.oversized);
    if (tooBig !== undefined) {
      return reject(
        `the record is larger than the limit of ${this.maxRecordBytes} bytes (maxRecordBytes): its ${describe(tooBig)} alone is larger; it was skipped: split the record, or raise the limit`,
      );
    }
    // One CHO: the rdf:RDF exactly as written. Several: the record's own descriptions
    // in a copy of the rdf:RDF start tag, so that the text stands alone.
    const sourceXml = whole
      ? unit.openTag + unit.content.map((c) => (typeof c === 'string' ? c : c.source)).join('') + unit.closeTag
      : `${unit.openTag}\n${members.map((m) => m.source).join('\n')}\n${unit.closeTag}`;
    const bytes = Buffer.byteLength(sourceXml, 'utf8');
    if (bytes > this.maxRecordBytes) {
      return reject(
        `the record is ${bytes} bytes, more than the limit of ${this.maxRecordBytes} bytes (maxRecordBytes); it was skipped: split the record, or raise the limit`,
      );
    }
    const rdf = normaliseEdm(
      unit.shell,
      members.map((m) => m.element!),
      cho.element!,
    );
    return withOai({ kind: 'record', record: { choUri: cho.about, rdf, sourceXml }, position }, oai);
  }
}
