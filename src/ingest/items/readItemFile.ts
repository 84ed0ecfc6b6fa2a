/**
 * Reads one input file of `ingest items`. EDM (RDF/XML, or OAI-PMH responses)
 * is streamed record by record, since one file may hold millions of records;
 * a package file (cortex XML, package JSON) is one document and read whole.
 */
import { looksLikeEdm, readEdmRecords } from '../edm/readEdmRecords.js';
import type { ItemChange } from '../../store/Store.js';
import { decodeUtf8, type InputFile } from '../readInputs.js';
import type { ReadResult } from '../runIngest.js';
import { edmChange, type EdmItemOptions } from './edmItems.js';
import type { ParserPool } from '../parserPool.js';

/** Enough of a file to see its first element past prolog and comments. */
const HEAD_BYTES = 16 * 1024;

export async function* readItemFile(file: InputFile, edm: EdmItemOptions, packages: ParserPool): AsyncGenerator<ReadResult<ItemChange>> {
  const chunks = file.stream()[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headBytes = 0;
  let ended = false;
  while (headBytes < HEAD_BYTES) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    head.push(chunk);
    headBytes += chunk.length;
  }
  async function* all(): AsyncGenerator<Buffer> {
    yield* head;
    if (ended) return;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  }

  if (looksLikeEdm(Buffer.concat(head).toString('utf8'))) {
    // The reader decodes the bytes itself, strictly, and says where a file stops being UTF-8.
    for await (const result of readEdmRecords(all())) yield edmChange(result, edm);
    return;
  }
  const whole: Buffer[] = [];
  for await (const chunk of all()) whole.push(chunk);
  const decoded = decodeUtf8(Buffer.concat(whole));
  if ('error' in decoded) {
    yield { kind: 'error', position: 'file', reason: decoded.error };
    return;
  }
  yield* packages.parse('packages', decoded);
}
