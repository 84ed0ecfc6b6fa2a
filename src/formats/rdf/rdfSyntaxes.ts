/**
 * Triples written in the RDF syntaxes the linked-data answers offer (docs/linked-data.md):
 * Turtle and N-Triples by the N3.js writer, JSON-LD by jsonld.js (docs/decisions.md "Linked data").
 * Both are the W3C-conformant implementations of their syntaxes; nothing here writes RDF by hand.
 */
import type { Quad } from '@rdfjs/types';
import jsonld from 'jsonld';
import { Writer } from 'n3';

export type RdfSyntax = 'jsonld' | 'turtle' | 'ntriples';

/** Prefix -> namespace IRI: Turtle's @prefix lines and the JSON-LD context's terms. */
export type Prefixes = Readonly<Record<string, string>>;

function written(writer: Writer): Promise<string> {
  return new Promise((resolve, reject) => writer.end((error, result: string) => (error ? reject(error) : resolve(result))));
}

/** Turtle (RDF 1.1 Turtle), with the prefixes that the triples use. */
export function writeTurtle(quads: readonly Quad[], prefixes: Prefixes): Promise<string> {
  const used = usedPrefixes(quads, prefixes);
  const writer = new Writer({ format: 'Turtle', prefixes: used });
  writer.addQuads([...quads]);
  return written(writer);
}

/** N-Triples (RDF 1.1 N-Triples): one triple a line. */
export function writeNTriples(quads: readonly Quad[]): Promise<string> {
  const writer = new Writer({ format: 'N-Triples' });
  writer.addQuads([...quads]);
  return written(writer);
}

/**
 * JSON-LD 1.1, compacted with a context of the prefixes the triples use (so that keys read
 * `dc:title`, not full IRIs). The context is inline: reading the answer needs no
 * document from anywhere, and writing it fetches none (a loader that refuses every URL).
 */
export async function writeJsonLd(quads: readonly Quad[], prefixes: Prefixes): Promise<string> {
  const nquads = await writeNQuads(quads);
  const refuse = (url: string): Promise<never> => Promise.reject(new Error(`no remote documents are loaded (${url})`));
  const expanded = await jsonld.fromRDF(nquads, { format: 'application/n-quads' });
  const context = { ...usedPrefixes(quads, prefixes) };
  const compacted = await jsonld.compact(expanded, context, { documentLoader: refuse });
  return `${JSON.stringify(compacted, null, 2)}\n`;
}

function writeNQuads(quads: readonly Quad[]): Promise<string> {
  const writer = new Writer({ format: 'N-Quads' });
  writer.addQuads([...quads]);
  return written(writer);
}

/** The prefixes whose namespace begins some IRI of the triples (a predicate, a type, a subject or object). */
function usedPrefixes(quads: readonly Quad[], prefixes: Prefixes): Record<string, string> {
  const iris = new Set<string>();
  for (const q of quads) {
    for (const term of [q.subject, q.predicate, q.object]) if (term.termType === 'NamedNode') iris.add(term.value);
    if (q.object.termType === 'Literal') iris.add(q.object.datatype.value);
  }
  const out: Record<string, string> = {};
  for (const [prefix, namespace] of Object.entries(prefixes)) {
    for (const iri of iris) {
      if (iri.startsWith(namespace)) {
        out[prefix] = namespace;
        break;
      }
    }
  }
  return out;
}
