/**
 * Route schemas of /institutions, /institutions/sectors and /institutions/map
 * (ddb-openapi-6.8.yml and -2.6.1.yml, tag institutions; docs/api.md "Institutions").
 */
import { SECTOR_CODES } from './bodies/institutions.js';
import { commonErrors, keyQuery } from './schemas.js';

export const MAP_LIMITS = { maxOffset: 1_000_000, maxLength: 1_000_000 } as const;

const SECTOR_TABLE =
  'sec_01 Archive, sec_02 Library, sec_03 Monument protection, sec_04 Research, sec_05 Media, sec_06 Museum, sec_07 Other (http://ddb.vocnet.org/sparte/sparte001 … 007).';

const institution = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'The DDB id of the institution (provider-ddb-id), else its provider-id.' },
    providerId: { type: 'string', description: 'provider-id ("" when unknown).' },
    name: { type: 'string' },
    sector: { type: 'string', description: `The first of its sectors ("" when unknown). ${SECTOR_TABLE}` },
    sectors: { type: 'array', items: { type: 'string' }, description: 'Every sector of its provider-domains.' },
    latitude: { type: ['number', 'null'], description: 'WGS84 degrees; null when unknown.' },
    longitude: { type: ['number', 'null'] },
    state: { type: 'string', description: 'German federal state ("" when unknown).' },
    uri: { type: 'string', description: 'Its website ("" when unknown).' },
    numberOfItems: { type: 'integer', description: 'How many items of this service it delivered.' },
    children: {
      type: 'array',
      description: 'The institutions that belong to it (provider-parent-id), each in this shape.',
      items: { type: 'object' },
    },
  },
} as const;

const jsonErrors = {
  400: commonErrors[400],
  401: commonErrors[401],
  403: { ...commonErrors[403], description: 'The API key is unknown or revoked.' },
  406: { ...commonErrors[406], description: 'The Accept header excludes application/json.' },
  429: commonErrors[429],
  500: commonErrors[500],
} as const;

const notModified = { description: 'Not modified (If-None-Match; the ETag is a weak digest of the body).', type: 'null' } as const;
const hasItems = {
  type: 'boolean',
  default: false,
  description: 'Only institutions that delivered items (and those they belong to).',
} as const;

export const institutionsSchema = {
  summary: 'The institutions whose items this service holds, as a tree (ddb-openapi-6.8 getInstitution)',
  querystring: {
    type: 'object',
    properties: {
      hasItems,
      sector: {
        type: 'string',
        enum: [...SECTOR_CODES],
        description: `Only institutions of this sector (and those they belong to). ${SECTOR_TABLE}`,
      },
      ...keyQuery,
    },
  },
  response: {
    200: {
      description: 'The institutions the packages name (provider-info), each with those that belong to it under children, ordered by name.',
      content: { 'application/json': { schema: { type: 'array', items: institution } } },
    },
    304: notModified,
    ...jsonErrors,
  },
} as const;

export const sectorsSchema = {
  summary: 'Every sector with the number of institutions in it (ddb-openapi-6.8 getInstitutionSector)',
  querystring: { type: 'object', properties: keyQuery },
  response: {
    200: {
      description: 'All seven sectors in order; an institution of several sectors counts in each.',
      content: {
        'application/json': {
          schema: { type: 'array', items: { type: 'object', properties: { value: { type: 'string' }, count: { type: 'integer' } } } },
        },
      },
    },
    304: notModified,
    ...jsonErrors,
  },
} as const;

export const mapSchema = {
  summary: 'The institutions with coordinates, flat and paged, for a map (ddb-openapi-6.8 getInstitutionMap)',
  querystring: {
    type: 'object',
    properties: {
      offset: {
        type: 'integer',
        minimum: 0,
        maximum: MAP_LIMITS.maxOffset,
        default: 0,
        description: 'Index of the first institution to return.',
      },
      // A string: -1 is allowed, which the strict integer check (../queryChecks.ts) does not take.
      length: {
        type: 'string',
        default: '-1',
        description: `How many to return: -1 (the default) for all, else 0 to ${MAP_LIMITS.maxLength}.`,
      },
      hasItems,
      clusterid: {
        type: 'string',
        default: '-1',
        description: 'The cluster (as in version 2.6.1 of the DDB API). There is one, -1, holding every institution.',
      },
      ...keyQuery,
    },
  },
  response: {
    200: {
      description: 'numberOfResults (institutions with coordinates) and the page of them, ordered by name, without children.',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { numberOfResults: { type: 'integer' }, institutions: { type: 'array', items: institution } },
          },
        },
      },
    },
    304: notModified,
    ...jsonErrors,
  },
} as const;
