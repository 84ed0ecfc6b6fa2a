/**
 * Reads the item packages in one input file (spec 2.4, docs/decisions.md
 * "Item package"), in the document format its content shows (./itemFormats.ts):
 * - a cortex XML document: kept byte for byte as the canonical form;
 * - package JSON (one package, or an array of packages): read keeping
 *   repeated keys, then turned into cortex XML, which becomes canonical.
 * The JSON form served is always derived from the canonical XML, so both
 * representations of an item say the same thing.
 */
import { DEFAULT_LIMITS, MAX_NESTING_DEPTH, type RecordLimits } from '../../formats/recordLimits.js';
import type { ItemChange } from '../../store/Store.js';
import type { ReadResult } from '../runIngest.js';
import { documentFormatOf, type ItemReadResult } from './itemFormats.js';

export type { ItemReadResult } from './itemFormats.js';

/** The packages of one document, by its format (./itemFormats.ts); a record over the limits is an error, the others are read. */
export function readItemRecords(text: string, limits: RecordLimits = DEFAULT_LIMITS, maxDepth = MAX_NESTING_DEPTH): ItemReadResult[] {
  const format = documentFormatOf(text);
  if (format !== undefined) return format.readDocument(text, limits, maxDepth);
  return [
    {
      kind: 'error',
      reason: text.search(/\S/) < 0 ? 'the file is empty' : 'neither XML nor JSON: expected a cortex XML document or package JSON',
      position: 'document',
    },
  ];
}

/** The packages of one document as item changes for a load. */
export function readPackageChanges(text: string, limits: RecordLimits = DEFAULT_LIMITS): ReadResult<ItemChange>[] {
  return readItemRecords(text, limits).flatMap((r): ReadResult<ItemChange>[] => {
    if (r.kind !== 'item') return [r];
    const record: ReadResult<ItemChange> = { kind: 'record', record: { kind: 'upsert', item: r.item }, position: r.position };
    return r.note === undefined ? [record] : [{ kind: 'note', note: r.note, position: r.position }, record];
  });
}
