/**
 * Item ids and the URIs that carry them. Shared by every backend and by the
 * ingest pipeline, so that all agree on what a valid id is.
 */

/** The DDB writes item URIs in this form (ProvidedCHO @about, dcterms:isPartOf). */
const DDB_ITEM_URI = /^https?:\/\/www\.deutsche-digitale-bibliothek\.de\/item\/([A-Za-z0-9]+)\/?$/;

/**
 * What we accept as an item id, in paths and in records: real DDB ids are 32
 * base32 characters; other sources use letters, digits and a few separators.
 * No '/', no control characters, no '..' (ids end up in file names of exports
 * and in log lines).
 */
const ITEM_ID = /^[A-Za-z0-9_:-][A-Za-z0-9._:-]{0,199}$/;

export function isValidItemId(id: string): boolean {
  return ITEM_ID.test(id) && !id.includes('..');
}

/** The item id inside a DDB item URI, or undefined when the URI is not one. */
export function itemIdFromUri(uri: string): string | undefined {
  return DDB_ITEM_URI.exec(uri.trim())?.[1];
}

export function ddbItemUri(id: string): string {
  return `http://www.deutsche-digitale-bibliothek.de/item/${id}`;
}
