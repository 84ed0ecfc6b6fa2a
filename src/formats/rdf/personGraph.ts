/**
 * A person (the stored entity document, spec 2.1) as RDF, in the terms lobid-gnd and the DNB's
 * own GND data use (docs/linked-data.md "Persons"): the GND ontology (gndo:) for what the GND
 * says of a person, and schema.org beside it for general consumers.
 *
 * - the person: the stored id (http://d-nb.info/gnd/X for GND persons), typed
 *   gndo:DifferentiatedPerson and schema:Person, owl:sameAs and schema:sameAs its https URI (the
 *   form the DNB and lobid-gnd mint today), gndo:gndIdentifier X;
 * - names: gndo:preferredNameForThePerson and schema:name, gndo:variantNameForThePerson and
 *   schema:alternateName;
 * - dates: gndo:dateOfBirth/dateOfDeath and schema:birthDate/deathDate, typed xsd:date or
 *   xsd:gYear where the text is one (as the DNB types them), else plain text as stored;
 * - places and occupations: the store keeps their labels, not their GND URIs, so each is a
 *   blank node with its label (rdfs:label, as lobid-gnd labels linked resources, and
 *   schema:name), typed schema:Place or schema:Occupation, linked by gndo:placeOfBirth /
 *   placeOfDeath / professionOrOccupation and schema:birthPlace / deathPlace / hasOccupation.
 */
import type { Quad, Quad_Object } from '@rdfjs/types';
import { DataFactory } from 'n3';
import { canonicalGndUri } from '../../domain/person.js';
import { VOCAB } from './vocabularies.js';

const { namedNode, literal, blankNode, quad } = DataFactory;

const RDF_TYPE = namedNode(`${VOCAB.rdf}type`);
const gndo = (local: string) => namedNode(`${VOCAB.gndo}${local}`);
const schema = (local: string) => namedNode(`${VOCAB.schema}${local}`);
const rdfs = (local: string) => namedNode(`${VOCAB.rdfs}${local}`);

function strings(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
}

/** A date as the DNB types it: xsd:date for YYYY-MM-DD, xsd:gYear for a year, else the text as stored. */
function dateLiteral(text: string) {
  const t = text.trim();
  if (/^-?[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(t)) return literal(t, namedNode(`${VOCAB.xsd}date`));
  if (/^-?[0-9]{4}$/.test(t)) return literal(t, namedNode(`${VOCAB.xsd}gYear`));
  return literal(text);
}

/** The triples of one person; the document as GET /entities shows it (unknown shapes read as absent). */
export function personQuads(doc: Record<string, unknown>): Quad[] {
  const id = typeof doc.id === 'string' ? doc.id : '';
  const person = namedNode(id);
  const out: Quad[] = [];
  const add = (p: ReturnType<typeof namedNode>, o: Quad_Object) => out.push(quad(person, p, o));
  add(RDF_TYPE, gndo('DifferentiatedPerson'));
  add(RDF_TYPE, schema('Person'));
  const gnd = canonicalGndUri(id);
  if (gnd !== null) {
    const number = gnd.slice('http://d-nb.info/gnd/'.length);
    add(gndo('gndIdentifier'), literal(number));
    const https = namedNode(`https://d-nb.info/gnd/${number}`);
    add(namedNode(`${VOCAB.owl}sameAs`), https);
    add(schema('sameAs'), https);
  }
  for (const name of strings(doc.preferredName).slice(0, 1)) {
    add(gndo('preferredNameForThePerson'), literal(name));
    add(schema('name'), literal(name));
  }
  for (const name of strings(doc.variantName)) {
    add(gndo('variantNameForThePerson'), literal(name));
    add(schema('alternateName'), literal(name));
  }
  for (const [field, gndTerm, schemaTerm] of [
    ['dateOfBirth', 'dateOfBirth', 'birthDate'],
    ['dateOfDeath', 'dateOfDeath', 'deathDate'],
  ] as const) {
    for (const date of strings(doc[field]).slice(0, 1)) {
      add(gndo(gndTerm), dateLiteral(date));
      add(schema(schemaTerm), dateLiteral(date));
    }
  }
  for (const [field, gndTerm, schemaTerm, type] of [
    ['placeOfBirth', 'placeOfBirth', 'birthPlace', 'Place'],
    ['placeOfDeath', 'placeOfDeath', 'deathPlace', 'Place'],
    ['professionOrOccupation', 'professionOrOccupation', 'hasOccupation', 'Occupation'],
  ] as const) {
    for (const [i, label] of strings(doc[field]).entries()) {
      // Labelled by field and position: the same document always gives the same text.
      const node = blankNode(`${field}${i}`);
      add(gndo(gndTerm), node);
      add(schema(schemaTerm), node);
      out.push(quad(node, RDF_TYPE, schema(type)));
      out.push(quad(node, rdfs('label'), literal(label)));
      out.push(quad(node, schema('name'), literal(label)));
    }
  }
  return out;
}
