/**
 * Route schemas of the operations of issue #15 (children, the parts of a
 * package, version, status), beside ./schemas.ts whose shared pieces they
 * use: Fastify validates requests with them and /openapi.json is made from
 * them.
 */
import { commonErrors, itemParams, keyQuery } from './schemas.js';

export const CHILDREN_LIMITS = { defaultRows: 20, maxRows: 1000, maxOffset: 1_000_000 } as const;

const childNode = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    parent: { type: 'string', description: 'the inquired item' },
    label: { type: 'string' },
    type: { type: 'string', description: 'hierarchy type code htype_nnn' },
    position: { type: 'string', description: '"-1" when the item has no position' },
    leaf: { type: 'boolean' },
    aggregationEntity: { type: 'boolean', description: 'isAggregationEntity in XML' },
    childCount: { type: 'integer', description: 'how many children this node has itself' },
  },
} as const;

export const childrenSchema = {
  summary: 'Children of an item, one level down, paged (ddb-openapi-6.8 getItemsIdChildren)',
  params: itemParams,
  querystring: {
    type: 'object',
    properties: {
      offset: { type: 'integer', minimum: 0, maximum: CHILDREN_LIMITS.maxOffset, default: 0, description: 'Index of the first child to return.' },
      rows: { type: 'integer', minimum: 0, maximum: CHILDREN_LIMITS.maxRows, default: CHILDREN_LIMITS.defaultRows, description: 'How many children to return.' },
      ...keyQuery,
    },
  },
  response: {
    200: {
      description:
        'numberOfResults (children in all) and the page of children, ordered by position (numeric positions by value, then other positions, then none), then label, then id.',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { numberOfResults: { type: 'integer' }, hierarchy: { type: 'array', items: childNode } },
          },
        },
        'application/xml': { schema: { type: 'string', description: '<hierarchy> holding <numberOfResults>, then <ns2:hierarchy-node> per child' } },
      },
    },
    ...commonErrors,
  },
} as const;
