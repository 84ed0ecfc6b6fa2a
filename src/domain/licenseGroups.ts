/**
 * The licence of an item's media as the search knows it (docs/search.md "Licences"): the
 * facet `license` holds the licence URI in one spelling, the facet `license_group` the DDB's
 * group of it.
 *
 * The group codes are the DDB's own: its packages carry them as the index field
 * `license_group` of the view (`rights_001` beside the Public Domain Mark of NF42…,
 * `rights_002` beside CC BY-NC-SA 4.0 of 4XUD… and CC BY-SA 4.0 of multi_uri.json,
 * `rights_003` beside InC 1.0 of bare_id.json), and the DDB's page on reusing search results
 * names the three groups: reuse without conditions (free), simple reuse with conditions
 * (Creative Commons licences: attribution, non-commercial, …), and the rest, which needs
 * the rights holder's permission. A package that names its group keeps it; for one that
 * does not (the packages we build from EDM), the group is derived from the URI as the
 * table in docs/search.md "Licences" says (docs/decisions.md "Licence groups").
 */

export const LICENSE_GROUPS = ['rights_001', 'rights_002', 'rights_003'] as const;
export type LicenseGroup = (typeof LICENSE_GROUPS)[number];

/** The groups a person may reuse the media of without asking (the pages' "reusable" filter). */
export const REUSABLE_GROUPS: readonly LicenseGroup[] = ['rights_001', 'rights_002'];

const CC_LICENSE = /^creativecommons\.org\/licenses\/by(?:-nc)?(?:-sa|-nd)?\/\d\.\d(?:\/[a-z]{2})?$/i;
const CC_PUBLIC_DOMAIN = /^creativecommons\.org\/publicdomain\/(?:zero|mark)\/1\.0$/i;
/** Statements that allow reuse on a condition, as a Creative Commons licence does. */
const WITH_CONDITIONS = new Set(['rightsstatements.org/vocab/noc-nc/1.0', 'www.europeana.eu/rights/out-of-copyright-non-commercial']);
/** Hosts whose URIs name a licence or statement of a known vocabulary: written in one spelling. */
const VOCABULARY_HOSTS = new Set([
  'creativecommons.org',
  'rightsstatements.org',
  'www.europeana.eu',
  'www.deutsche-digitale-bibliothek.de',
]);

/** The URI without scheme, deed/legalcode page, query and trailing slash; host lowercased. */
function keyOf(uri: string): string {
  const noScheme = uri
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/[?#].*$/, '');
  const slash = noScheme.indexOf('/');
  const host = (slash === -1 ? noScheme : noScheme.slice(0, slash)).toLowerCase();
  const path = slash === -1 ? '' : noScheme.slice(slash);
  return (host + path).replace(/\/(deed(\.[a-z-]+)?|legalcode(\.[a-z-]+)?)$/i, '').replace(/\/+$/, '');
}

/**
 * The licence URI in the spelling the facet keeps: a URI of Creative Commons,
 * RightsStatements.org, Europeana or the DDB as `http://<host>/<path>/` (the spelling of the
 * real packages: `http://creativecommons.org/licenses/by-nc-sa/4.0/`), whatever its scheme,
 * deed page or trailing slash; any other URI trimmed, as written. "" for an empty one.
 */
export function canonicalLicense(uri: string): string {
  const trimmed = uri.trim();
  if (trimmed === '') return '';
  const key = keyOf(trimmed);
  const host = key.split('/', 1)[0]!;
  return VOCABULARY_HOSTS.has(host) && /^https?:\/\//i.test(trimmed) ? `http://${key}/` : trimmed;
}

/** The DDB group of a licence URI (see the header); every URI has one. */
export function licenseGroupOf(uri: string): LicenseGroup {
  const key = keyOf(uri);
  if (CC_PUBLIC_DOMAIN.test(key)) return 'rights_001';
  if (CC_LICENSE.test(key) || WITH_CONDITIONS.has(key.toLowerCase())) return 'rights_002';
  return 'rights_003';
}

export function isLicenseGroup(value: string): value is LicenseGroup {
  return (LICENSE_GROUPS as readonly string[]).includes(value);
}
