// The parts of an item package as resources of their own (docs/decisions.md "Parts of a package";
// ddb-openapi-6.8.yml getItemsIdView, getItemsIdEdm, getItemsIdIndexingProfile,
// getItemsIdBinaries, getItemsIdSource, getItemsIdSourceComponent).
//
// One rule for every part: the XML form is the part's element of the cortex document,
// written as a document of its own (./xmlWrite.ts), and the JSON form is the value the
// package's JSON form has under the part's key (cortexToJson of the same element), so a
// client finds in `/items/{id}/view` exactly what `aip` holds under `view`. Exceptions:
// - `edm`: the XML form is the rdf:RDF inside the part, an RDF/XML document
//   (application/rdf+xml); the JSON form is still the package's `edm` value ({"RDF": …}).
// - `source`: packages of the newer API generation carry a `source` part holding
//   `description` (bare_id.json, multi_uri.json); the 2014 cortex packages and those we
//   build from EDM carry the provider's record as escaped text in `metadata-record`
//   instead. For those the source part is made in the newer shape:
//   <source><description><id>ID</id><record><ref>ID</ref><href>/items/ID/source/record</href>
//   <type>namespace of the record</type></record></description></source>
//   (type: the record's root namespace, or that of the record inside an OAI-PMH envelope;
//   left out when the text is not well-formed XML).
// - `source/record`: the text of `metadata-record`, an XML document (XML only). When the
//   package has none but its source description names the record of another item
//   (hierarchical formats keep it at the root, ddb-openapi-6.8.yml), that item is given.

import { NS } from './namespaces.js';
import { cortexToJson } from './cortexToJson.js';
import { parseXml, XmlSyntaxError, type XmlElement } from './xmlTree.js';
import { writeXmlDocument } from './xmlWrite.js';
import { viewInLanguage, type LabelLanguage } from './viewLabels.js';

export const PACKAGE_PARTS = ['view', 'edm', 'indexing-profile', 'binaries', 'source', 'source/description', 'source/record'] as const;
export type PackagePart = (typeof PACKAGE_PARTS)[number];

/** What a part request gets from the package. */
export type PartContent =
  | { kind: 'part'; xml: string; json: string | undefined }
  /** The package lacks the part. */
  | { kind: 'missing' }
  /** The part is another item's (source/record of a hierarchy: the root holds it). */
  | { kind: 'elsewhere'; itemId: string };

const OAI_NAMESPACE = 'http://www.openarchives.org/OAI/2.0/';

const elements = (el: XmlElement): XmlElement[] => el.children.filter((c): c is XmlElement => typeof c !== 'string');

function child(el: XmlElement | undefined, local: string, namespace: string = NS.cortex): XmlElement | undefined {
  return el === undefined ? undefined : elements(el).find((c) => c.local === local && c.namespace === namespace);
}

function textOf(el: XmlElement): string {
  return el.children.filter((c): c is string => typeof c === 'string').join('');
}

const both = (el: XmlElement): PartContent => ({ kind: 'part', xml: writeXmlDocument(el), json: JSON.stringify(valueOf(el)) });

/** The JSON value of an element, as the package's JSON form has it. */
function valueOf(el: XmlElement): unknown {
  // cortexToJson gives an object for a root; a part that is only text (or empty) is its text.
  const hasStructure = el.attributes.length > 0 || el.children.some((c) => typeof c !== 'string');
  return hasStructure ? cortexToJson(el) : textOf(el);
}

/** The namespace of the provider's record: its root's, or that of the record inside an OAI-PMH envelope. */
function recordType(recordText: string): string | undefined {
  let root: XmlElement;
  try {
    root = parseXml(recordText);
  } catch (e) {
    if (e instanceof XmlSyntaxError) return undefined;
    throw e;
  }
  if (root.namespace === OAI_NAMESPACE) {
    for (const verb of elements(root)) {
      const metadata = child(child(verb, 'record', OAI_NAMESPACE), 'metadata', OAI_NAMESPACE);
      const inner = metadata === undefined ? undefined : elements(metadata)[0];
      if (inner !== undefined) return inner.namespace || undefined;
    }
  }
  return root.namespace || undefined;
}

function cortexElement(local: string, children: Array<XmlElement | string>): XmlElement {
  return { name: local, prefix: '', local, namespace: NS.cortex, attributes: [], children };
}

/** The source part of a package that has the record's text but no `source` (see the header). */
function madeSource(itemId: string, recordText: string): XmlElement {
  const type = recordType(recordText);
  const record = cortexElement('record', [
    cortexElement('ref', [itemId]),
    cortexElement('href', [`/items/${itemId}/source/record`]),
    ...(type === undefined ? [] : [cortexElement('type', [type])]),
  ]);
  return cortexElement('source', [cortexElement('description', [cortexElement('id', [itemId]), record])]);
}

function sourceOf(root: XmlElement, itemId: string): XmlElement | undefined {
  const source = child(root, 'source');
  if (source !== undefined) return source;
  const record = child(root, 'metadata-record');
  return record === undefined ? undefined : madeSource(itemId, textOf(record));
}

/** The JSON form of a binaries part without entries. */
const EMPTY_BINARIES = '{"binary":[]}';

const RECORD_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

function sourceRecord(root: XmlElement, itemId: string): PartContent {
  const record = child(root, 'metadata-record');
  if (record !== undefined) {
    const text = textOf(record);
    if (text.trim() === '') return { kind: 'missing' };
    return { kind: 'part', xml: text.startsWith('<?xml') ? text : `${RECORD_DECLARATION}${text}`, json: undefined };
  }
  const ref = child(child(child(root, 'source'), 'description'), 'record');
  const holder = ref === undefined ? undefined : child(ref, 'ref');
  const holderId = holder === undefined ? '' : textOf(holder).trim();
  return holderId !== '' && holderId !== itemId ? { kind: 'elsewhere', itemId: holderId } : { kind: 'missing' };
}

/** The part of the package whose cortex document is `root`; the view's labels in `language` (./viewLabels.ts). */
export function packagePart(root: XmlElement, itemId: string, part: PackagePart, language: LabelLanguage = 'de'): PartContent {
  switch (part) {
    case 'edm': {
      const edm = child(root, 'edm');
      const rdf = child(edm, 'RDF', NS.rdf);
      if (edm === undefined || rdf === undefined) return { kind: 'missing' };
      return { kind: 'part', xml: writeXmlDocument(rdf), json: JSON.stringify(valueOf(edm)) };
    }
    case 'source': {
      const source = sourceOf(root, itemId);
      return source === undefined ? { kind: 'missing' } : both(source);
    }
    case 'source/description': {
      const description = child(sourceOf(root, itemId), 'description');
      return description === undefined ? { kind: 'missing' } : both(description);
    }
    case 'source/record':
      return sourceRecord(root, itemId);
    case 'binaries': {
      const el = child(root, part);
      if (el === undefined) return { kind: 'missing' };
      // An empty <binaries/> (an item without files) is the part's shape with no entries
      // (`binaries`: an object whose `binary` is an array of descriptors), not the empty string.
      return elements(el).length === 0 && el.attributes.length === 0
        ? { kind: 'part', xml: writeXmlDocument(el), json: EMPTY_BINARIES }
        : both(el);
    }
    case 'view': {
      const el = child(root, part);
      return el === undefined ? { kind: 'missing' } : both(viewInLanguage(el, language));
    }
    default: {
      const el = child(root, part);
      return el === undefined ? { kind: 'missing' } : both(el);
    }
  }
}
