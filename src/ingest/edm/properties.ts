/**
 * The `properties` part (spec 2.4: item-id, ingest-id, ingest-date,
 * cortex-type) and the date form shared with `last_update`.
 */
import { NS } from '../../formats/namespaces.js';
import { node, textNode, type Node } from './cortexWriter.js';

const two = (n: number): string => String(n).padStart(2, '0');

/**
 * `<yy>-<mm>-<dd> <hh>:<mm>:<ss>` (spec 2.4), as in the real package
 * NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR (`14-06-19 13:42:21`), in UTC: the spec
 * form has no zone, and UTC reads the same on every server.
 */
export function ingestDateText(date: Date): string {
  return (
    `${two(date.getUTCFullYear() % 100)}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())} ` +
    `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`
  );
}

/** The ingest id when the operator gives none: the ingest day, `YYYYMMDD` (as `20140808` in 4XUD...). */
export function defaultIngestId(date: Date): string {
  return `${date.getUTCFullYear()}${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}`;
}

/**
 * The category of every package built from EDM. The real packages say "Kultur" for a
 * book chapter (edm:type TEXT) and a print (no edm:type) alike: the DDB's other
 * category is for institutions, which EDM records do not describe. edm:type decides
 * `media` instead (mediaTypes.ts).
 */
export const CORTEX_TYPE = 'Kultur';

export function propertiesPart(itemId: string, ingestId: string, ingestDate: Date): Node {
  return node(
    NS.cortex,
    'properties',
    [],
    [
      textNode(NS.cortex, 'item-id', itemId),
      textNode(NS.cortex, 'ingest-id', ingestId),
      textNode(NS.cortex, 'ingest-date', ingestDateText(ingestDate)),
      textNode(NS.cortex, 'cortex-type', CORTEX_TYPE),
    ],
  );
}
