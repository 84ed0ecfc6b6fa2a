/**
 * The person entity as the store keeps it and the entity search returns it
 * (spec 2.1 "Entity (person)"), plus `gender`, which the spec table
 * does not list but `person_gender_fct` needs (docs/decisions.md "Person facets").
 * `count` is not part of it: the store computes it from the items (docs/decisions.md "count").
 */
export interface Person {
  /** Canonical form http://d-nb.info/gnd/<X> for GND URIs; other URIs as given. */
  id: string;
  type: 'person';
  preferredName: string;
  /** May be empty (spec 2.1). */
  variantName: string[];
  /** Free text as in the source record (docs/decisions.md "Person fields"). */
  dateOfBirth?: string;
  dateOfDeath?: string;
  /** Labels, not URIs: the spec's entity carries strings and the facets list names. */
  placeOfBirth?: string[];
  placeOfDeath?: string[];
  professionOrOccupation?: string[];
  /** Labels as the source gives them ("Mann" in EntityFacts, "Männlich" in lobid-gnd): see README.md. */
  gender?: string[];
}

// The DNB resolver and lobid-gnd both mint https URIs today, EntityFacts 2014 and the
// DDB use http; docs/decisions.md "GND ids" says both are the same person, so we store one form (http, the
// form of the spec's own example `id:"http://d-nb.info/gnd/118540238"`). "/about" and
// "/about/<format>" are the DNB's description pages of the same resource.
const GND_URI = /^https?:\/\/d-nb\.info\/gnd\/([0-9][0-9X-]*)(?:\/about(?:\/[a-z]+)?)?\/?$/i;

/** http(s)://d-nb.info/gnd/X[/][/about] → http://d-nb.info/gnd/X; null when not a GND URI. */
export function canonicalGndUri(uri: string): string | null {
  const m = GND_URI.exec(uri.trim());
  const gndId = m?.[1];
  return gndId === undefined ? null : `http://d-nb.info/gnd/${gndId.toUpperCase()}`;
}

// A URI scheme followed by something (RFC 3986 scheme syntax). The spec calls `id` a
// "URI-style identifier", so a bare "118540238" is refused rather than guessed at.
const ANY_URI = /^[a-z][a-z0-9+.-]*:\S+$/i;

/**
 * The id to store for a source id: GND URIs in canonical form, any other URI unchanged
 * (e.g. a VIAF or Wikidata URI from another authority), null when it is not a URI.
 */
export function canonicalPersonId(id: string): string | null {
  const trimmed = id.trim();
  return canonicalGndUri(trimmed) ?? (ANY_URI.test(trimmed) ? trimmed : null);
}
