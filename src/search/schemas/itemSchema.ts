/**
 * The schema of items (GET /search, the Solr route): see the comment on itemSchema.
 */
import { ITEM_FACETS, STORED_ITEM_FACETS } from '../../domain/itemFacets.js';
import type { Schema } from '../engine/schema.js';

/**
 * Items (the mapping from a package: ./itemDocument.ts and src/formats/itemFields.ts; the field list: docs/search-engine.md
 * "Item fields"): the title of the view's index fields (else the preview's), the
 * preview's subtitle, the index fields `description` and `ranking`, and the profile's
 * facets as words (keywords, places, affiliates, providers). Text field names are the
 * query fields of the real /search (OpenAPI 6.8: `title`, `description`, `keywords`,
 * `place`, `affiliate`, `provider`, `ranking`). Weights: title over subtitle over keywords
 * and people over description over the rest (docs/search.md "Relevance").
 * `begin_time` / `end_time` are the view's day numbers (days from 0001-01-01, Julian
 * calendar before 1582-10-15: 680449 = 1864-01-01; src/ingest/edm/timeVocabulary.ts).
 * Text fields but `affiliate` (names of persons) are analysed in the item's languages
 * (`language_fct`; src/search/engine/analysis.ts).
 */
export const itemSchema: Schema = {
  kind: 'item',
  idField: 'id',
  text: [
    { name: 'title', weight: 8 },
    { name: 'subtitle', weight: 4 },
    { name: 'keywords', weight: 3 },
    { name: 'affiliate', weight: 3 },
    { name: 'description', weight: 2 },
    { name: 'place', weight: 2 },
    { name: 'ranking', weight: 1 },
    { name: 'provider', weight: 1 },
  ],
  facets: ITEM_FACETS,
  numbers: [
    { name: 'begin_time', example: 'begin_time:[680000 TO 690000]' },
    { name: 'end_time', example: 'end_time:[680000 TO 690000]' },
    // the item's point (docs/search.md "Geography"): latitude and longitude in degrees
    { name: 'geocode_0_coordinate', example: 'geocode_0_coordinate:[50 TO 52]', values: 'latitudes in decimal degrees' },
    { name: 'geocode_1_coordinate', example: 'geocode_1_coordinate:[6 TO 15]', values: 'longitudes in decimal degrees' },
  ],
  geo: { latitude: 'geocode_0_coordinate', longitude: 'geocode_1_coordinate' },
  sortKeys: [
    { name: 'title', type: 'string' },
    { name: 'begin_time', type: 'number' },
  ],
  relevanceTiebreak: [{ key: 'title', descending: false }],
  // The keys of src/formats/itemFields.ts itemStoredFields.
  storedFields: [
    'id',
    'title',
    'subtitle',
    'label',
    'thumbnail',
    'media',
    'category',
    'type',
    'latitude',
    'longitude',
    ...STORED_ITEM_FACETS,
    'begin_time',
    'end_time',
  ],
  // every text field but the persons' names (docs/search.md "What matches what")
  analysis: {
    fields: ['title', 'subtitle', 'keywords', 'description', 'place', 'ranking', 'provider'],
    languageFacet: 'language_fct',
  },
};
