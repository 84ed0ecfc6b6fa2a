/**
 * EDM records into item changes: each record becomes a cortex
 * package (src/ingest/edm/buildPackage.ts), which then takes the same path
 * to a stored row as a package loaded from a file, so both say the same
 * thing. A deleted OAI-PMH record becomes a deletion by its identifier.
 */
import { createHash } from 'node:crypto';
import { buildPackage, type BuildOptions } from '../edm/buildPackage.js';
import type { EdmReadResult, OaiHeader } from '../edm/types.js';
import type { ItemChange } from '../../store/Store.js';
import type { ReadResult } from '../runIngest.js';
import { MAX_NESTING_DEPTH } from '../../formats/recordLimits.js';
import { cortexXmlFormat } from './cortexXmlFormat.js';
import { RecordError } from '../../formats/recordError.js';

/**
 * Part of every source digest: raise it when the package builder's output
 * changes, so that re-loading unchanged sources rebuilds their packages.
 */
export const PACKAGE_BUILDER_VERSION = 2;

/**
 * Packages built from EDM nest a few levels deeper than the record they come from
 * (cortex > edm > rdf:RDF), which the EDM reader held to MAX_NESTING_DEPTH already.
 */
export const BUILT_PACKAGE_DEPTH = MAX_NESTING_DEPTH + 8;

export interface EdmItemOptions extends BuildOptions {
  /** Identifies the providers file in use: a new one rebuilds packages of unchanged sources. */
  providersFingerprint: string;
}

const where = (position: string, oai: OaiHeader | undefined) => (oai ? `${position}, OAI identifier ${oai.identifier}` : position);

export function edmChange(result: EdmReadResult, options: EdmItemOptions): ReadResult<ItemChange> {
  if (result.kind === 'deleted') return { kind: 'record', record: { kind: 'delete', sourceId: result.oai.identifier } };
  if (result.kind === 'note') return result;
  if (result.kind === 'error') return { kind: 'error', position: where(result.position, result.oai), reason: result.reason };
  let xml: string;
  try {
    xml = buildPackage(result.record, options).xml;
  } catch (e) {
    if (e instanceof RecordError) {
      return { kind: 'error', position: where(result.position, result.oai), reason: e.message };
    }
    throw e;
  }
  // The record was held to ingest.maxRecordBytes as read; the package built from it is ours.
  const [read] = cortexXmlFormat.readDocument(xml, { maxRecordBytes: Number.MAX_SAFE_INTEGER }, BUILT_PACKAGE_DEPTH);
  if (read?.kind !== 'item') {
    // The builder wrote something the package reader refuses: a bug of ours, reported with the record.
    const reason = read?.kind === 'error' ? read.reason : 'no package';
    return {
      kind: 'error',
      position: where(result.position, result.oai),
      reason: `the package built from this record is not valid (${reason}); please report this`,
    };
  }
  const sourceDigest = createHash('sha256')
    .update(`${PACKAGE_BUILDER_VERSION}\n${options.providersFingerprint}\n`)
    .update(result.record.sourceXml)
    .digest('base64url');
  return {
    kind: 'record',
    record: { kind: 'upsert', item: { ...read.item, sourceId: result.oai?.identifier ?? null, sourceDigest } },
    position: where(result.position, result.oai),
  };
}
