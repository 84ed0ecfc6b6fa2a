/**
 * The item id of the package built from an EDM record (spec 2.4
 * `properties/item-id`; docs/decisions.md "Item ids from EDM").
 *
 * - A record that comes from the DDB carries its id: the CHO's rdf:about, an
 *   owl:sameAs or a dc:identifier of the form
 *   http://www.deutsche-digitale-bibliothek.de/item/<ID>. We keep it, so the
 *   item keeps the id under which clients know it.
 * - Otherwise the id is derived from the CHO URI in the same 32-character form
 *   as real DDB ids: RFC 4648 base32 (uppercase, no padding) of the SHA-1 of
 *   the URI. 160 bits are exactly 32 base32 characters, and the same URI always
 *   gives the same id, so re-loading a record replaces its package.
 */
import { createHash } from 'node:crypto';
import { NS } from '../../formats/namespaces.js';
import { itemIdFromUri } from '../../domain/itemIds.js';
import type { EdmRecord } from './types.js';
import { literals, RdfGraph, resources } from './rdfGraph.js';

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 section 6 base32, uppercase, without padding. */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += BASE32_ALPHABET[(buffer >> bits) & 31];
    }
    buffer &= (1 << bits) - 1; // keep only the bits not yet written, so the number stays small
  }
  if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/** The 32-character id derived from a CHO URI. */
export function derivedItemId(choUri: string): string {
  return base32(createHash('sha1').update(choUri, 'utf8').digest());
}

/** The DDB item id the CHO states (rdf:about, owl:sameAs, dc:identifier), if any. */
export function statedItemId(graph: RdfGraph): string | undefined {
  const candidates = [graph.choUri, ...resources(graph.cho, NS.owl, 'sameAs'), ...literals(graph.cho, NS.dc, 'identifier')];
  for (const uri of candidates) {
    const id = itemIdFromUri(uri);
    if (id !== undefined) return id;
  }
  return undefined;
}

export function itemIdOf(graph: RdfGraph): string {
  return statedItemId(graph) ?? derivedItemId(graph.choUri);
}

export function edmItemId(record: EdmRecord): string {
  return itemIdOf(new RdfGraph(record.rdf, record.choUri));
}
