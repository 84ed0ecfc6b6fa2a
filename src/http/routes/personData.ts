/**
 * GET /entities/{gnd}: one person as linked data (docs/linked-data.md "Persons"), in JSON-LD,
 * Turtle or N-Triples by Accept, in the GND ontology and schema.org terms
 * (../../formats/rdf/personGraph.ts). The person is the stored entity document of
 * http://d-nb.info/gnd/{gnd}, as GET /entities shows it. Behind a key, as /entities is.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { canonicalGndUri } from '../../domain/person.js';
import { ApiError } from '../../errors.js';
import { personQuads } from '../../formats/rdf/personGraph.js';
import { writeJsonLd, writeNTriples, writeTurtle } from '../../formats/rdf/rdfSyntaxes.js';
import { PERSON_PREFIXES } from '../../formats/rdf/vocabularies.js';
import type { Store } from '../../store/Store.js';
import { linkedDataNegotiation, RDF_CONTENT_TYPE } from '../linkedData.js';
import { commonErrors, keyQuery } from '../schemas.js';
import { sendTagged, tagged } from '../validators.js';

export interface PersonDataRouteDeps {
  config: Config;
  store: Pick<Store, 'readSearchBodies'>;
}

/** JSON-LD first (what `*∕*` and a missing Accept get); application/json is the same JSON-LD, as lobid-gnd answers it. */
const PERSON_DATA = linkedDataNegotiation(['application/ld+json', 'application/json'], ['text/turtle', 'application/n-triples']);

/** A GND number (118540238, 11871791X, 4005728-8), as /person/{gnd} takes it. */
const GND_NUMBER = /^[0-9][0-9Xx-]{0,19}$/;

const personDataSchema = {
  summary: 'One person as linked data: JSON-LD, Turtle or N-Triples in GND ontology and schema.org terms (docs/linked-data.md)',
  params: {
    type: 'object',
    properties: { gnd: { type: 'string', description: 'The GND number of a stored person, e.g. 118540238.' } },
    required: ['gnd'],
  },
  querystring: { type: 'object', properties: { ...keyQuery } },
  response: {
    200: {
      description: 'The person: rdf:type gndo:DifferentiatedPerson and schema:Person, names, dates, places and occupations.',
      content: {
        'application/ld+json': { schema: { type: 'object', description: 'JSON-LD 1.1 with an inline context.' } },
        'application/json': { schema: { type: 'object', description: 'The same JSON-LD.' } },
        'text/turtle': { schema: { type: 'string' } },
        'application/n-triples': { schema: { type: 'string' } },
      },
    },
    304: { description: 'Not modified (If-None-Match).', type: 'null' },
    ...commonErrors,
  },
} as const;

export function registerPersonDataRoutes(app: FastifyInstance, deps: PersonDataRouteDeps): void {
  const cacheControl = `public, max-age=${deps.config.http.cacheMaxAgeSeconds}`;
  app.get<{ Params: { gnd: string } }>(
    '/entities/:gnd',
    { schema: personDataSchema },
    async (request: FastifyRequest<{ Params: { gnd: string } }>, reply: FastifyReply) => {
      const gnd = request.params.gnd;
      const choice = PERSON_DATA.choose(request, deps.config.http.requireAccept);
      const id = GND_NUMBER.test(gnd) ? canonicalGndUri(`http://d-nb.info/gnd/${gnd}`) : null;
      if (id === null) throw ApiError.of('personNotFound', gnd);
      const [body] = await deps.store.readSearchBodies('person', [id]);
      if (body === null || body === undefined) throw ApiError.of('personNotFound', gnd);
      const quads = personQuads(JSON.parse(body) as Record<string, unknown>);
      const type = choice.kind === 'rdf' ? choice.type : 'application/ld+json';
      const text =
        type === 'text/turtle'
          ? await writeTurtle(quads, PERSON_PREFIXES)
          : type === 'application/n-triples'
            ? await writeNTriples(quads)
            : await writeJsonLd(quads, PERSON_PREFIXES);
      // application/json chosen: the JSON-LD under the type asked for.
      const json = choice.kind === 'route' && choice.offer === 'application/json';
      reply.header('Content-Type', json ? 'application/json; charset=utf-8' : RDF_CONTENT_TYPE[type]).header('Vary', 'Accept');
      return sendTagged(request, reply, tagged(Buffer.from(text)), cacheControl);
    },
  );
}
