/**
 * EDM: RDF/XML with one or many records, or OAI-PMH responses holding them
 * (docs/edm-mapping.md). An input format of `ingest items` (./itemFormats.ts), streamed
 * record by record on the main thread, since one file may hold millions of records; each
 * record becomes a cortex package (./edmItems.ts).
 */
import type { RecordLimits } from '../../formats/recordLimits.js';
import { looksLikeEdm, readEdmRecords } from '../edm/readEdmRecords.js';
import { edmChange } from './edmItems.js';
import type { StreamFormat } from './itemFormats.js';

export const edmFormat: StreamFormat = {
  name: 'edm',
  sniff: looksLikeEdm,
  read: 'stream',
  async *readStream(input: AsyncIterable<Buffer | string>, limits: RecordLimits, options) {
    for await (const record of readEdmRecords(input, limits)) yield edmChange(record, options);
  },
};
