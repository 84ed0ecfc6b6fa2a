/**
 * Reads one input file of `ingest items` in its format (./itemFormats.ts). A
 * package file (cortex XML, package JSON) is one document, read and parsed whole
 * on a parser worker. EDM (RDF/XML, or OAI-PMH responses) is streamed record by
 * record on the main thread, since one file may hold millions of records: the
 * worker only looks at its head and says so.
 */
import type { RecordLimits } from '../../formats/recordLimits.js';
import type { ItemChange } from '../../store/Store.js';
import type { ParserPool } from '../parserPool.js';
import type { InputFile } from '../readInputs.js';
import type { ReadResult } from '../runIngest.js';
import type { EdmItemOptions } from './edmItems.js';
import { ITEM_HEAD_BYTES, itemFormatOf, streamFormatNamed } from './itemFormats.js';

export function readItemFile(
  file: InputFile,
  edm: EdmItemOptions,
  packages: ParserPool<'packages'>,
  limits: RecordLimits,
): AsyncIterable<ReadResult<ItemChange>> {
  if (file.path === undefined) return readStreamed(file, edm, packages, limits);
  const parsed = packages.parse({ path: file.path });
  return (async function* () {
    for await (const result of parsed) {
      // The reader decodes the bytes itself, strictly, and says where a file stops being UTF-8.
      if (result.kind === 'stream') yield* streamFormatNamed(result.format).readStream(file.stream(), limits, edm);
      else yield result;
    }
  })();
}

/** Standard input: read once, so its head is looked at here. */
async function* readStreamed(
  file: InputFile,
  edm: EdmItemOptions,
  packages: ParserPool<'packages'>,
  limits: RecordLimits,
): AsyncGenerator<ReadResult<ItemChange>> {
  const chunks = file.stream()[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headBytes = 0;
  let ended = false;
  while (headBytes < ITEM_HEAD_BYTES) {
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

  const format = itemFormatOf(Buffer.concat(head).toString('utf8'));
  if (format?.read === 'stream') {
    yield* format.readStream(all(), limits, edm);
    return;
  }
  const whole: Buffer[] = [];
  for await (const chunk of all()) whole.push(chunk);
  for await (const result of packages.parse({ bytes: Buffer.concat(whole) })) {
    if (result.kind !== 'stream') yield result;
  }
}
