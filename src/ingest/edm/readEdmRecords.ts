// readEdmRecords: EDM records in RDF/XML, streamed, as records in the DDB form (docs/edm-mapping.md;
// the shapes are in types.ts).
//
// Inputs: one record per rdf:RDF, many records in one rdf:RDF, many rdf:RDF elements
// under any wrapper element, and OAI-PMH 2.0 ListRecords/GetRecord responses (each record
// then carries its `oai` header; `<header status="deleted">` gives a `deleted` result and
// an `<error>` element an error, OAI-PMH 2.0 sections 2.5.1 and 3.6). Both forms of EDM
// are read: Europeana's (properties on ore:Proxy) is normalised to the DDB's (properties
// on edm:ProvidedCHO), see normaliseEdm.ts.
//
// How the work is split, one concern a file:
// - decodeChunks.ts: bytes to text, strict UTF-8, with the position of a bad byte;
// - edmStream.ts: saxes events to rdf:RDF elements and OAI-PMH parts (streamUnits.ts),
//   holding only the text still needed (sourceText.ts) and one rdf:RDF at a time
//   (openRdf.ts), trees built as XmlElement (elementFromTag in src/formats/xmlTree.ts, as parseXml builds them); broken XML stops the file
//   there, without recovery (why: edmStream.ts); file-level messages in streamMessages.ts;
// - oaiEnvelope.ts: OAI-PMH headers and errors;
// - groupDescriptions.ts: which descriptions of an rdf:RDF form which record;
// - normaliseEdm.ts: the DDB form of one record;
// - recordAssembler.ts: numbering, positions, and the checks that reject a record;
// - looksLikeEdm.ts: routing a file by its head; edmVocabulary.ts: the names acted on.
//
// Every result has a position: `record N, line L, column C` for a record (with its OAI
// identifier when it has one), `line L, column C` for a problem of the file itself.

import { DEFAULT_LIMITS } from '../../formats/recordLimits.js';
import { decodeChunks, NotUtf8Error } from './decodeChunks.js';
import { EdmStream } from './edmStream.js';
import { RecordAssembler } from './recordAssembler.js';
import type { EdmReadResult } from './types.js';

export { EDM_HEAD_BYTES, looksLikeEdm } from './looksLikeEdm.js';

/** ingest.maxRecordBytes's default (src/formats/recordLimits.ts). */
export { DEFAULT_MAX_RECORD_BYTES } from '../../formats/recordLimits.js';

export interface ReadEdmOptions {
  /** A record whose source text is larger (UTF-8 bytes) is rejected; default 16 MB (ingest.maxRecordBytes). */
  maxRecordBytes?: number;
}

export async function* readEdmRecords(input: AsyncIterable<Buffer | string>, options: ReadEdmOptions = {}): AsyncGenerator<EdmReadResult> {
  const maxRecordBytes = options.maxRecordBytes ?? DEFAULT_LIMITS.maxRecordBytes;
  if (!Number.isSafeInteger(maxRecordBytes) || maxRecordBytes <= 0) {
    throw new RangeError(`maxRecordBytes must be a positive whole number of bytes, not ${String(options.maxRecordBytes)}`);
  }
  const stream = new EdmStream(maxRecordBytes);
  const assembler = new RecordAssembler(maxRecordBytes);
  try {
    for await (const text of decodeChunks(input)) {
      stream.write(text);
      for (const unit of stream.take()) yield* assembler.results(unit);
      if (stream.isStopped) return;
    }
    stream.end();
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    stream.stopWith(`the input is not UTF-8 (${error.message}): convert the file to UTF-8`, stream.line, stream.column);
  }
  for (const unit of stream.take()) yield* assembler.results(unit);
}
