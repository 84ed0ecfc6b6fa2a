/**
 * The input formats of `ingest items` (docs/cli.md "ingest items PATH..."), told by their
 * content, not their file name: a file is in the first format of ITEM_FORMATS whose
 * `sniff` takes its head (its first ITEM_HEAD_BYTES, decoded). A format is read as one
 * document on a parser worker (src/ingest/parsers.ts: one or more packages), or streamed
 * record by record on the main thread (./readItemFile.ts). A new format is one module with
 * its sniff and its read, and one line in ITEM_FORMATS.
 */
import type { RecordLimits } from '../../formats/recordLimits.js';
import type { ItemChange, PreparedItem } from '../../store/Store.js';
import { EDM_HEAD_BYTES } from '../edm/readEdmRecords.js';
import type { ReadResult } from '../runIngest.js';
import { cortexXmlFormat } from './cortexXmlFormat.js';
import { edmFormat } from './edmFormat.js';
import type { EdmItemOptions } from './edmItems.js';
import { packageJsonFormat } from './packageJsonFormat.js';

export type ItemReadResult =
  /** `note`: what was changed on the way in (a DOCTYPE dropped), for the load report. */
  { kind: 'item'; item: PreparedItem; position: string; note?: string } | { kind: 'error'; reason: string; position: string };

interface FormatBase {
  name: string;
  /** Whether a file whose head (or whole text) is this is in this format. */
  sniff(head: string): boolean;
}

/** Read whole: one document, one record or more. */
export interface DocumentFormat extends FormatBase {
  read: 'document';
  readDocument(text: string, limits: RecordLimits, maxDepth: number): ItemReadResult[];
}

/** Read record by record from the file's bytes, as they come. */
export interface StreamFormat extends FormatBase {
  read: 'stream';
  readStream(input: AsyncIterable<Buffer | string>, limits: RecordLimits, options: EdmItemOptions): AsyncIterable<ReadResult<ItemChange>>;
}

export type ItemFormat = DocumentFormat | StreamFormat;

/** In the order they are tried: EDM before cortex XML, since both open with `<`. */
export const ITEM_FORMATS: readonly ItemFormat[] = [edmFormat, cortexXmlFormat, packageJsonFormat];

/** Enough of a file's first bytes for every sniff. */
export const ITEM_HEAD_BYTES = EDM_HEAD_BYTES;

/** The format of a file by its head, or undefined when none takes it. */
export function itemFormatOf(head: string): ItemFormat | undefined {
  return ITEM_FORMATS.find((f) => f.sniff(head));
}

/** The document format of a whole text, or undefined when none takes it. */
export function documentFormatOf(text: string): DocumentFormat | undefined {
  return ITEM_FORMATS.find((f): f is DocumentFormat => f.read === 'document' && f.sniff(text));
}

/** The streamed format of that name (a parser worker names it: src/ingest/parsers.ts). */
export function streamFormatNamed(name: string): StreamFormat {
  const format = ITEM_FORMATS.find((f): f is StreamFormat => f.read === 'stream' && f.name === name);
  if (format === undefined) throw new Error(`no streamed item format '${name}'`);
  return format;
}
