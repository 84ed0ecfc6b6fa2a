/**
 * Route schemas of children, the parts of a package, version and status, beside ./schemas.ts whose shared pieces they
 * use: Fastify validates requests with them and /openapi.json is made from
 * them.
 */
import { commonErrors, itemParams, keyQuery, langQuery } from './schemas.js';

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
      offset: {
        type: 'integer',
        minimum: 0,
        maximum: CHILDREN_LIMITS.maxOffset,
        default: 0,
        description: 'Index of the first child to return.',
      },
      rows: {
        type: 'integer',
        minimum: 0,
        maximum: CHILDREN_LIMITS.maxRows,
        default: CHILDREN_LIMITS.defaultRows,
        description: 'How many children to return.',
      },
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
        'application/xml': {
          schema: { type: 'string', description: '<hierarchy> holding <numberOfResults>, then <ns2:hierarchy-node> per child' },
        },
      },
    },
    304: { description: 'Not modified (If-None-Match; the ETag is a weak digest of the body).', type: 'null' },
    ...commonErrors,
  },
} as const;

const PART_DESCRIPTIONS: Record<string, { summary: string; json?: string; xml: string; xmlTypes: string[] }> = {
  view: {
    summary: 'The view of an item: the data set its page is made from (ddb-openapi-6.8 getItemsIdView)',
    json: 'The value of `view` in the package JSON ({"item": …}).',
    xml: 'The <view> element of the cortex document, as a document of its own.',
    xmlTypes: ['application/xml'],
  },
  edm: {
    summary: 'The item in the Europeana Data Model (ddb-openapi-6.8 getItemsIdEdm)',
    json: 'The value of `edm` in the package JSON ({"RDF": …}).',
    xml: 'The rdf:RDF of the package, an RDF/XML document. What */* and a missing Accept get.',
    xmlTypes: ['application/rdf+xml', 'application/xml'],
  },
  'indexing-profile': {
    summary: 'The profile the item was indexed with (ddb-openapi-6.8 getItemsIdIndexingProfile)',
    json: 'The value of `indexing-profile` in the package JSON.',
    xml: 'The <indexing-profile> element of the cortex document.',
    xmlTypes: ['application/xml'],
  },
  binaries: {
    summary: 'The binary files of the item (ddb-openapi-6.8 getItemsIdBinaries)',
    json: 'The value of `binaries` in the package JSON ({"binary": …}: one descriptor as an object, several as an array); {"binary": []} for an item without files.',
    xml: 'The <binaries> element of the cortex document.',
    xmlTypes: ['application/xml'],
  },
  source: {
    summary: "Where the item's metadata come from (ddb-openapi-6.8 getItemsIdSource)",
    json: '{"description": {"id", "record": {"ref", "href", "type"}}}: the package\'s `source`, or made in that shape from its metadata-record (docs/api.md).',
    xml: '<source> holding <description>.',
    xmlTypes: ['application/xml'],
  },
  'source/description': {
    summary: 'The description of the original metadata (ddb-openapi-6.8 getItemsIdSourceComponent)',
    json: '{"id", "record": {"ref", "href", "type"}}: type is the namespace of the provider\'s record.',
    xml: '<description> of <source>.',
    xmlTypes: ['application/xml'],
  },
  'source/record': {
    summary: "The provider's original metadata record, as XML (ddb-openapi-6.8 getItemsIdSourceComponent)",
    xml: "The text of the package's metadata-record: an XML document. XML only.",
    xmlTypes: ['application/xml'],
  },
};

/** The schema of GET /items/{id}/<part>. */
export function partSchema(part: string) {
  const d = PART_DESCRIPTIONS[part]!;
  const content: Record<string, { schema: Record<string, unknown> }> = {};
  if (d.json !== undefined) content['application/json'] = { schema: { type: 'object', description: d.json } };
  for (const type of d.xmlTypes) content[type] = { schema: { type: 'string', description: d.xml } };
  if (part === 'edm') Object.assign(content, RDF_SYNTAX_CONTENT);
  return {
    summary: d.summary,
    params: itemParams,
    querystring: { type: 'object', properties: { ...langQuery, ...keyQuery } },
    response: {
      200: { description: `The ${part} part of the package. ETag and Last-Modified follow the package.`, content },
      ...(part === 'source/record'
        ? { 303: { description: 'The record is kept at another item (the root of a hierarchy): see Location.', type: 'null' } }
        : {}),
      304: { description: 'Not modified (If-None-Match / If-Modified-Since).', type: 'null' },
      ...commonErrors,
      404: {
        ...commonErrors[404],
        description: 'The item does not exist (ItemNotFoundException), or its package lacks this part (ItemPartNotFoundException).',
      },
    },
  };
}

/** The RDF syntaxes an item's EDM is also given in (docs/linked-data.md), for the OpenAPI description. */
export const RDF_SYNTAX_CONTENT: Record<string, { schema: Record<string, unknown> }> = {
  'application/ld+json': {
    schema: { type: 'object', description: 'The EDM graph as JSON-LD 1.1, compacted with a context of EDM prefixes.' },
  },
  'text/turtle': { schema: { type: 'string', description: 'The EDM graph as Turtle.' } },
  'application/n-triples': { schema: { type: 'string', description: 'The EDM graph as N-Triples.' } },
};

export const versionSchema = {
  summary: 'The version of this service, as plain text (ddb-openapi-6.8 getVersion). No key needed.',
  security: [],
  response: {
    200: { description: 'The version, e.g. 0.1.0.', content: { 'text/plain': { schema: { type: 'string' } } } },
    406: commonErrors[406],
    429: commonErrors[429],
    500: commonErrors[500],
  },
} as const;

export const statusSchema = {
  summary: 'How fresh the data is: version, data version, counts, last loads and harvests',
  querystring: { type: 'object', properties: keyQuery },
  response: {
    200: {
      description:
        'dataVersion is opaque: it changes whenever the stored data may have changed. loads: the last load from files of items and of persons. ' +
        'harvests: per OAI-PMH source, when it was last harvested, its high-water mark (the `from` of the next run) and whether the last run completed.',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              version: { type: 'string' },
              dataVersion: { type: 'string' },
              items: { type: 'integer' },
              persons: { type: 'integer' },
              loads: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    kind: { type: 'string', enum: ['items', 'persons'] },
                    lastLoaded: { type: 'string', format: 'date-time' },
                    records: { type: 'integer' },
                    inserted: { type: 'integer' },
                    updated: { type: 'integer' },
                    unchanged: { type: 'integer' },
                    deleted: { type: 'integer' },
                    problems: { type: 'integer' },
                  },
                },
              },
              harvests: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    baseUrl: { type: ['string', 'null'], description: 'without user information or query' },
                    metadataPrefix: { type: ['string', 'null'] },
                    set: { type: ['string', 'null'] },
                    lastHarvested: { type: 'string', format: 'date-time' },
                    highWater: { type: ['string', 'null'] },
                    complete: { type: 'boolean' },
                  },
                },
              },
            },
          },
        },
      },
    },
    401: commonErrors[401],
    403: { ...commonErrors[403], description: 'The API key is unknown or revoked.' },
    406: { ...commonErrors[406], description: 'The Accept header excludes application/json.' },
    429: commonErrors[429],
    500: commonErrors[500],
  },
} as const;
