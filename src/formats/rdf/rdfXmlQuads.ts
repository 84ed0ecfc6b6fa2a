/**
 * An RDF/XML document (RDF 1.1 XML Syntax) as the triples it means, for the other RDF syntaxes of
 * an item's EDM (docs/linked-data.md). The parser is rdfxml-streaming-parser, which passes
 * the W3C RDF/XML test suite (docs/decisions.md "Linked data"): the stored EDM is the one truth, and
 * every other syntax is written from exactly these triples.
 */
import type { BlankNode, Quad } from '@rdfjs/types';
import { DataFactory } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';

/** The text is not RDF/XML the parser can read (not well-formed, or not RDF). */
export class RdfXmlSyntaxError extends Error {
  override readonly name = 'RdfXmlSyntaxError';
}

/**
 * The triples of `text`, in document order. `baseIri` resolves relative IRIs (RDF/XML section 2.14).
 * Blank nodes are labelled b0, b1, … in order of appearance, so that the same document always
 * gives the same text in every syntax (its ETag names one body).
 * IRIs are not validated beyond what the syntax needs: a stored record whose IRIs are loose still
 * reads, as RDF/XML processors do (the writers escape what their syntax cannot hold).
 */
export function rdfXmlQuads(text: string, baseIri: string): Promise<Quad[]> {
  return new Promise((resolve, reject) => {
    const quads: Quad[] = [];
    const parser = new RdfXmlParser({ baseIRI: baseIri, dataFactory: DataFactory, validateUri: false });
    const labels = new Map<string, BlankNode>();
    const label = <T extends Quad['subject'] | Quad['object']>(term: T): T | BlankNode => {
      if (term.termType !== 'BlankNode') return term;
      let mine = labels.get(term.value);
      if (mine === undefined) labels.set(term.value, (mine = DataFactory.blankNode(`b${labels.size}`)));
      return mine;
    };
    parser.on('data', (q: Quad) =>
      quads.push(DataFactory.quad(label<Quad['subject']>(q.subject), q.predicate, label<Quad['object']>(q.object), q.graph)),
    );
    parser.on('error', (error: Error) => reject(new RdfXmlSyntaxError(error.message)));
    parser.on('end', () => resolve(quads));
    parser.end(text);
  });
}
