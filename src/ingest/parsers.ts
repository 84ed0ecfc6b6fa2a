/**
 * What the parser workers do with an input file, by name. Each parser is
 * pure and gives its results in chunks, so the writing thread can start on
 * the first records of a large file while the worker goes on with the rest.
 * Files on disk are read by the worker itself: a read on the main thread
 * could only finish between two batch writes, which block its event loop.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { DEFAULT_LIMITS, tooLargeReason, type RecordLimits } from '../formats/recordLimits.js';
import { ITEM_HEAD_BYTES, itemFormatOf } from './items/itemFormats.js';
import { readPackageChanges } from './items/readItemRecords.js';
import { readPreparedPersons } from './persons/preparePerson.js';
import type { ItemChange, PreparedPerson } from '../store/Store.js';
import { decodeUtf8, decodeUtf8Lines } from './readInputs.js';
import type { NotUtf8 } from './persons/readPersons.js';
import type { ReadResult } from './runIngest.js';

export interface ParsedRecords {
  /**
   * Cortex XML or package JSON: one document, one or more packages. A file on
   * disk in a streamed format (EDM) answers `stream` with the format's name
   * alone: it is streamed record by record on the main thread instead, since
   * one file may hold millions of records (src/ingest/items/itemFormats.ts).
   * (Standard input's head is looked at on the main thread, which reads it.)
   */
  packages: ReadResult<ItemChange> | { kind: 'stream'; format: string };
  /** GND persons in any of the formats readPersons knows. */
  persons: ReadResult<PreparedPerson>;
}

export type ParserName = keyof ParsedRecords;

type Reader<K extends ParserName> = (text: string, limits: RecordLimits, notUtf8?: NotUtf8) => Iterable<ParsedRecords[K]>;

const READERS: { [K in ParserName]: Reader<K> } = {
  packages: readPackageChanges,
  persons: readPreparedPersons,
};

/** A document to parse: the path of a file, which the worker reads, or its bytes (standard input). */
export type ParseInput = { path: string } | { bytes: Uint8Array };

/**
 * How each parser runs on the pool (src/ingest/parserPool.ts):
 * - `records` per message, and `ahead`: messages the workers together may
 *   have posted that the main thread has not yet taken (their credits, shared
 *   out among them). Together they bound the memory a load holds ahead of its
 *   writes, whatever the number of cores, while keeping enough ahead that the
 *   workers parse on through a batch write: about 100,000 persons (a few
 *   hundred MB), or 2,000 packages (10-60 KB each, in two forms).
 * - `workers`, given the cores: a package takes about twice as long to parse
 *   as to write, so packages use every core (measured on 2 cores: 1,390/s
 *   against 1,250/s with one worker); persons are quicker to parse than to
 *   write and leave the main thread a core of its own (25,600/s against 23,900/s).
 */
export const PARSING: Record<ParserName, { records: number; ahead: number; workers: (cores: number) => number }> = {
  persons: { records: 2000, ahead: 50, workers: (cores) => cores - 1 },
  packages: { records: 1, ahead: 2000, workers: (cores) => cores },
};

function* chunked<T>(results: Iterable<T>, size: number): Generator<T[]> {
  let chunk: T[] = [];
  for (const r of results) {
    chunk.push(r);
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/**
 * What the head of a package file says: a streamed format (EDM), or one
 * record too large to read (a cortex document or a single package object is
 * one record, measured by the file's size before it is read), or neither.
 */
function packageFileHead(path: string, limits: RecordLimits): { stream: string } | { tooLarge: number } | null {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(ITEM_HEAD_BYTES);
    const text = head.toString('utf8', 0, readSync(fd, head, 0, ITEM_HEAD_BYTES, 0));
    const format = itemFormatOf(text);
    if (format?.read === 'stream') return { stream: format.name };
    const size = fstatSync(fd).size;
    const first = /\S/.exec(text.replace(/^\uFEFF/, ''))?.[0];
    return size > limits.maxRecordBytes && (first === '<' || first === '{') ? { tooLarge: size } : null;
  } finally {
    closeSync(fd);
  }
}

function bytesOf(input: ParseInput): Buffer {
  return 'path' in input ? readFileSync(input.path) : Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
}

/**
 * The results of `parser` on `input`, in chunks; a file that cannot be read or is
 * not UTF-8 gives one error. So does a parser that fails on it: whatever a
 * hostile file does, it costs its own records, never the load.
 */
export function* parseInput<K extends ParserName>(
  parser: K,
  input: ParseInput,
  records = PARSING[parser].records,
  limits: RecordLimits = DEFAULT_LIMITS,
): Generator<Array<ParsedRecords[K]>> {
  const error = (reason: string, position = 'file') => [{ kind: 'error', position, reason }] as Array<ParsedRecords[K]>;
  let text: string;
  let notUtf8: NotUtf8 | undefined;
  try {
    if (parser === 'packages' && 'path' in input) {
      const head = packageFileHead(input.path, limits);
      if (head !== null && 'stream' in head) {
        yield [{ kind: 'stream', format: head.stream }] as Array<ParsedRecords[K]>;
        return;
      }
      if (head !== null) {
        yield error(tooLargeReason(head.tooLarge, limits.maxRecordBytes), 'document');
        return;
      }
    }
    if (parser === 'persons') {
      // Persons come as JSON lines too, where a line that is not UTF-8 costs that line alone.
      const decoded = decodeUtf8Lines(bytesOf(input));
      text = decoded.text;
      notUtf8 = decoded.notUtf8;
    } else {
      const decoded = decodeUtf8(bytesOf(input));
      if ('error' in decoded) {
        yield error(decoded.error);
        return;
      }
      text = decoded.text;
    }
  } catch (e) {
    yield error(`cannot read the file: ${(e as Error).message}`);
    return;
  }
  let given = 0;
  try {
    for (const chunk of chunked(READERS[parser](text, limits, notUtf8), records)) {
      given += chunk.length;
      yield chunk;
    }
  } catch (e) {
    // A bug of ours that this file brings out (such as a stack overflow): the rest of the file is lost, the load goes on.
    yield error(`the file could not be read past its first ${given} records (${(e as Error).message}); please report this with the file`);
  }
}
