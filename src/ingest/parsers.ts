/**
 * What the parser workers can do with a document's text, by name. Each parser
 * is pure and gives its results in chunks, so the writing thread can start on
 * the first records of a large file while the worker goes on with the rest.
 */
import { readFileSync } from 'node:fs';
import { readPackageChanges } from './items/readItemRecords.js';
import { readPreparedPersons } from './persons/preparePerson.js';
import type { ItemChange, PreparedPerson } from '../store/Store.js';
import { decodeUtf8 } from './readInputs.js';
import type { ReadResult } from './runIngest.js';

/** Records per message from a worker: large enough that messaging costs little, small enough to start writing early. */
const CHUNK = 5000;

function* chunked<T>(results: Iterable<T>): Generator<T[]> {
  let chunk: T[] = [];
  for (const r of results) {
    chunk.push(r);
    if (chunk.length === CHUNK) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

export interface ParsedRecords {
  /** Cortex XML or package JSON: one document, one or more packages. */
  packages: ReadResult<ItemChange>;
  /** GND persons in any of the formats readPersons knows. */
  persons: ReadResult<PreparedPerson>;
}

export type ParserName = keyof ParsedRecords;

export const PARSERS: { [K in ParserName]: (text: string) => Iterable<Array<ParsedRecords[K]>> } = {
  packages: (text) => [readPackageChanges(text)],
  persons: (text) => chunked(readPreparedPersons(text)),
};

/**
 * A document to parse: its text, its bytes, or the path of a file, which the
 * worker then reads itself. A file read on the main thread would only finish
 * between two batch writes, which block its event loop for seconds.
 */
export type ParseInput = { text: string } | { bytes: Uint8Array } | { path: string };

function textOf(input: ParseInput): { text: string } | { error: string } {
  if ('text' in input) return input;
  if ('bytes' in input) return decodeUtf8(Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength));
  try {
    return decodeUtf8(readFileSync(input.path));
  } catch (e) {
    return { error: `cannot read the file: ${(e as Error).message}` };
  }
}

/** The results of `parser` on `input` in chunks; a file that cannot be read or is not UTF-8 gives one error. */
export function* parseInput<K extends ParserName>(parser: K, input: ParseInput): Generator<Array<ParsedRecords[K]>> {
  const text = textOf(input);
  if ('error' in text) {
    yield [{ kind: 'error', position: 'file', reason: text.error }];
    return;
  }
  yield* PARSERS[parser](text.text);
}
