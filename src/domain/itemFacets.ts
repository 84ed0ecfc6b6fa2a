/**
 * The facets of an item: every `*_fct` an indexing profile carries (the real packages
 * fixtures/items/cortex/*, old and new generation, and the packages we build from EDM),
 * with their `_normdata` forms (authority URIs), but not the `_autocomplete` copies of the
 * newer generation (the same values again, for suggestions). Values as the profile writes
 * them: `time_fct` holds codes of the DDB time vocabulary (`time_61900` = 19th century),
 * `type_fct` media types (`mediatype_002`), `sector_fct` sectors (`sec_06`). Ours, derived
 * by src/formats/itemFields.ts: `affiliate_fct_involved` and `affiliate_fct_subject` (the names of
 * `affiliate_fct_role` with that role: `Pecht, August Friedrich_1_affiliate_fct_involved`
 * gives `Pecht, August Friedrich`; the real /search takes both as parameters, OpenAPI
 * 6.8), `has_media_fct` ("true"/"false": whether the package lists binaries), and the
 * licence of the item's media, `license` (its URI) and `license_group` (the DDB's group of
 * it, `rights_001` to `rights_003`: src/domain/licenseGroups.ts), named as the real /search
 * names its parameters and facets (OpenAPI 6.8), and `geocode`: the item's point as
 * `lat,lon` (its view's latitude and longitude as written), which the real /search offers as
 * a facet; counted and filtered on as a facet, but not a stored field (the stored latitude and
 * longitude hold it) and, as a /search parameter, read as a shape (docs/search.md "Geography").
 */
export const ITEM_FACETS = [
  'time_fct',
  'place_fct',
  'place_fct_normdata',
  'affiliate_fct',
  'affiliate_fct_normdata',
  'affiliate_fct_role',
  'affiliate_fct_role_normdata',
  'affiliate_fct_involved',
  'affiliate_fct_subject',
  'keywords_fct',
  'keywords_fct_normdata',
  'topic_fct',
  'objecttype_fct',
  'objecttype_fct_normdata',
  'apd_keywords_fct',
  'language_fct',
  'type_fct',
  'sector_fct',
  'provider_fct',
  'provider_fct_normdata',
  'dataprovider_fct',
  'dataprovider_fct_normdata',
  'has_media_fct',
  'license',
  'license_group',
  'geocode',
] as const;

/** The facets that are stored fields too: all but `geocode`, which latitude and longitude hold. */
export const STORED_ITEM_FACETS = ITEM_FACETS.filter((f) => f !== 'geocode');
