/**
 * Reading RDF answers with real RDF processors, independent of the server's own (docs/linked-data.md
 * "Tests"): Raptor's `rapper` (Debian's raptor2-utils) for RDF/XML, N3.js for Turtle and
 * N-Triples, jsonld.js for JSON-LD; graphs compared by rdf-isomorphic (blank nodes matched by
 * structure, not by label).
 */
import { spawnSync } from 'node:child_process';
import type { Quad } from '@rdfjs/types';
import jsonld from 'jsonld';
import { Parser } from 'n3';
import { isomorphic } from 'rdf-isomorphic';

/** The triples of an RDF/XML document as Raptor reads it; `undefined` when Raptor refuses it. */
export function rapperTriples(rdfXml: string, baseIri: string): Quad[] | undefined {
  const run = spawnSync('rapper', ['--quiet', '--input', 'rdfxml', '--output', 'ntriples', '-', baseIri], {
    input: rdfXml,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error) throw run.error; // rapper is not installed: .ci/run installs raptor2-utils
  if (run.status !== 0) return undefined;
  return new Parser({ format: 'N-Triples' }).parse(run.stdout);
}

/** The triples of an answer body in the syntax its media type names. */
export async function triplesOf(mediaType: string, body: string, baseIri: string): Promise<Quad[]> {
  switch (mediaType) {
    case 'text/turtle':
      return new Parser({ format: 'Turtle', baseIRI: baseIri }).parse(body);
    case 'application/n-triples':
      return new Parser({ format: 'N-Triples' }).parse(body);
    case 'application/ld+json':
    case 'application/json': {
      const nquads = (await jsonld.toRDF(JSON.parse(body) as object, {
        format: 'application/n-quads',
        base: baseIri,
      })) as unknown as string;
      return new Parser({ format: 'N-Quads' }).parse(nquads);
    }
    case 'application/rdf+xml': {
      const triples = rapperTriples(body, baseIri);
      if (triples === undefined) throw new Error('rapper refused the RDF/XML answer');
      return triples;
    }
    default:
      throw new Error(`no RDF syntax: ${mediaType}`);
  }
}

export function sameGraph(a: readonly Quad[], b: readonly Quad[]): boolean {
  return isomorphic([...a], [...b]);
}

/** Whether any triple has a blank node. */
export function hasBlankNodes(quads: readonly Quad[]): boolean {
  return quads.some((q) => q.subject.termType === 'BlankNode' || q.object.termType === 'BlankNode');
}
