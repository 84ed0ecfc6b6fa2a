/**
 * The digital objects of a record and the `binaries` part (spec 2.4: one
 * descriptor per object, `@path` of the form /binary/<item-id>/<variant>/<n>.<ext>).
 *
 * Which web resources: the ore:Aggregation's edm:isShownBy, then edm:object,
 * then each edm:hasView in order, then any other edm:WebResource of the
 * record, each URL once. edm:isShownAt is the provider's web page about the
 * object, not a file, and is left out (the only edm:WebResource of 4XUD...).
 * The first is the primary one and the preview's thumbnail. The real
 * packages list each file in five sizes (full, list, grid, mvth, mvpr) made
 * by the DDB's image service; we serve no scaled copies, so each object gets
 * one descriptor, in the `list` variant that the preview's thumbnail names.
 */
import { NS } from '../../formats/namespaces.js';
import type { XmlElement } from '../../formats/xmlTree.js';
import { node, type Node } from './cortexWriter.js';
import { extensionOfMimeType, extensionOfUrl, mimeTypeOfExtension, UNKNOWN_MIME_TYPE } from '../../domain/mediaTypes.js';
import { aboutOf, literals, NS_EBUCORE, preferredLabel, props, type RdfGraph, resources } from './rdfGraph.js';

export interface Binary {
  url: string;
  /** The record's edm:WebResource for it, when there is one. */
  resource: XmlElement | undefined;
  position: number;
  primary: boolean;
  mimetype: string;
  ext: string;
  name: string;
  /** Credit (dc:creator of the web resource), shown as name2 in the real packages ("Foto: ..."). */
  name2: string;
  /** Rights statement (dc:rights of the web resource), name3 in the real packages ("© ..."). */
  name3: string;
}

const MIME = /^[a-z]+\/[a-z0-9.+-]+$/i;

/** ebucore:hasMimeType, else a dc:format that is a MIME type, else the URL's extension. */
function mimeTypeOf(url: string, resource: XmlElement | undefined): string {
  const stated = [...literals(resource, NS_EBUCORE, 'hasMimeType'), ...literals(resource, NS.dc, 'format')].find((m) => MIME.test(m));
  if (stated !== undefined) return stated.toLowerCase();
  return mimeTypeOfExtension(extensionOfUrl(url)) ?? UNKNOWN_MIME_TYPE;
}

export function binariesOf(graph: RdfGraph, itemTitle: string): Binary[] {
  const agg = graph.aggregation;
  const pages = new Set(resources(agg, NS.edm, 'isShownAt'));
  const urls: string[] = [];
  const add = (url: string) => {
    if (!urls.includes(url) && !pages.has(url)) urls.push(url);
  };
  for (const local of ['isShownBy', 'object', 'hasView']) for (const url of resources(agg, NS.edm, local)) add(url);
  for (const wr of graph.classes(NS.edm, 'WebResource')) {
    const about = aboutOf(wr);
    if (about !== undefined) add(about);
  }
  return urls.map((url, i) => {
    const resource = graph.entity(url, NS.edm, 'WebResource');
    const mimetype = mimeTypeOf(url, resource);
    const ext = mimetype === UNKNOWN_MIME_TYPE ? extensionOfUrl(url) || 'bin' : extensionOfMimeType(mimetype);
    const name = preferredLabel(props(resource, NS.dc, 'title')) ?? preferredLabel(props(resource, NS.dc, 'description')) ?? itemTitle;
    return {
      url,
      resource,
      position: i + 1,
      primary: i === 0,
      mimetype,
      ext,
      name,
      name2: literals(resource, NS.dc, 'creator').join('; '),
      name3: literals(resource, NS.dc, 'rights').join('; '),
    };
  });
}

export const binaryPath = (itemId: string, b: Binary): string => `/binary/${itemId}/list/${b.position}.${b.ext}`;

/** Attribute order of the real packages: category, primary, position, path, mimetype, name3, name2, name. */
export function binariesPart(itemId: string, binaries: Binary[]): Node {
  return node(
    NS.cortex,
    'binaries',
    [],
    binaries.map((b) =>
      node(NS.cortex, 'binary', [
        { name: 'category', value: 'list' },
        { name: 'primary', value: String(b.primary) },
        { name: 'position', value: String(b.position) },
        { name: 'path', value: binaryPath(itemId, b) },
        { name: 'mimetype', value: b.mimetype },
        ...(b.name3 ? [{ name: 'name3', value: b.name3 }] : []),
        ...(b.name2 ? [{ name: 'name2', value: b.name2 }] : []),
        { name: 'name', value: b.name },
      ]),
    ),
  );
}
