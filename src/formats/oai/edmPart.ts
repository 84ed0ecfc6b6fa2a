/**
 * The rdf:RDF of a package's `edm` part as a document element of its own, for the OAI-PMH
 * `edm` format (docs/oai-pmh.md): the same element `/items/{id}/edm` serves
 * (../packageParts.ts), cut out of the stored cortex text without parsing it when the text
 * is plain enough, since a full harvest reads every package of the store.
 *
 * The cut keeps the element's bytes and adds the namespace declarations it inherited from
 * `<cortex>` and `<edm>` (Namespaces in XML 1.0, section 6.1: a declaration holds for the
 * element it is on and its content), so the result means what the element meant in the
 * package. A text with comments, CDATA or processing instructions after its prolog, or
 * another shape than `<cortex …><…/><edm><p:RDF …>…</p:RDF></edm>`, takes the parsing path.
 */
import { NS } from '../namespaces.js';
import { packagePart } from '../packageParts.js';
import { parseXml, type XmlElement } from '../xmlTree.js';

const ATTRS = String.raw`((?:\s+[^\s=<>/]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*`;
const ROOT_TAG = new RegExp(String.raw`^<cortex${ATTRS}>`);
const EDM_TAG = new RegExp(String.raw`<edm${ATTRS}>\s*<((?:[A-Za-z_][\w.-]*:)?RDF)${ATTRS}(/?)>`, 'g');
const XMLNS = /\s(xmlns(?::([^\s=]+))?)\s*=\s*("[^"]*"|'[^']*')/g;
const PROLOG = /^\uFEFF?(?:\s+|<\?xml[^>]*\?>|<!--[\s\S]*?-->)*/;
const UNPREFIXED_TAG = /<[A-Za-z_][\w.-]*[\s/>]/;

/** The document element's text: the stored document without its XML declaration, comments and whitespace before it. */
export function documentElementText(xml: string): string {
  return xml.slice(PROLOG.exec(xml)![0].length).trimEnd();
}

/** prefix ('' for the default) -> the declaration as written, in order. */
function declarations(attrs: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of attrs.matchAll(XMLNS)) out.set(m[2] ?? '', ` ${m[1]}=${m[3]}`);
  return out;
}

function namespaceOf(declaration: string | undefined): string | undefined {
  if (declaration === undefined) return undefined;
  const value = declaration.slice(declaration.indexOf('=') + 1).trim();
  return value.slice(1, -1);
}

/** The fast cut; undefined when the text is not of the plain shape. */
function cut(body: string): string | undefined {
  const root = ROOT_TAG.exec(body);
  if (root === null || body.includes('<!--') || body.includes('<![CDATA[') || body.includes('<?')) return undefined;
  EDM_TAG.lastIndex = root[0].length;
  const edm = EDM_TAG.exec(body);
  if (edm === null) return undefined;
  const [whole, edmAttrs = '', qname = '', rdfAttrs = '', selfClosing] = edm;
  const inScope = new Map([...declarations(root[1] ?? ''), ...declarations(edmAttrs)]);
  const own = declarations(rdfAttrs);
  const prefix = qname.includes(':') ? qname.slice(0, qname.indexOf(':')) : '';
  if ((namespaceOf(own.get(prefix) ?? inScope.get(prefix)) ?? '') !== NS.rdf) return undefined;
  const contentStart = edm.index + whole.length;
  let end = contentStart;
  let inner = '';
  if (selfClosing !== '/') {
    const close = `</${qname}>`;
    const at = body.indexOf(close, contentStart);
    if (at < 0) return undefined;
    inner = body.slice(contentStart, at);
    end = at + close.length;
  }
  if (!/^\s*<\/edm\s*>/.test(body.slice(end))) return undefined;
  // Declarations it inherits and uses (a prefix followed by ':', or an unprefixed element for the default).
  const text = `<${qname}${rdfAttrs}>${inner}`;
  let added = '';
  for (const [p, declaration] of inScope) {
    if (own.has(p)) continue;
    if (p === '' ? UNPREFIXED_TAG.test(inner) : text.includes(`${p}:`)) added += declaration;
  }
  const start = `<${qname}${added}${rdfAttrs}`;
  return selfClosing === '/' ? `${start}/>` : `${start}>${inner}</${qname}>`;
}

/** The end of the package's edm part: what a package's start must reach for the fast cut. */
export const EDM_CLOSE = Buffer.from('</edm>');

/**
 * The fast cut of a package's start that reaches its first `</edm>` (the stored bytes, or
 * only their decoded start); undefined when it does not reach it or is not of the plain
 * shape (then give edmRdfElement the whole package). What follows the edm part cannot change
 * what it means, and the cut checks the start as it checks a whole text.
 */
export function edmRdfElementOfStart(start: Buffer): string | undefined {
  const close = start.indexOf(EDM_CLOSE);
  return close < 0 ? undefined : cut(documentElementText(start.toString('utf8', 0, close + EDM_CLOSE.length)));
}

/**
 * The package's rdf:RDF as an element of its own (no XML declaration); undefined when the
 * package has no EDM. Given the stored bytes, only the text up to the first `</edm>` is
 * decoded for the fast cut: the edm part comes early in a package (a few KB of 10–60),
 * and a full harvest spent a third of its time decoding the rest and scanning it
 * (docs/oai-pmh.md "Speed"); any other shape decodes it all.
 */
export function edmRdfElement(xml: string | Buffer): string | undefined {
  if (typeof xml !== 'string') return edmRdfElementOfStart(xml) ?? edmOfText(xml.toString('utf8'));
  return edmOfText(xml);
}

function edmOfText(xml: string): string | undefined {
  const body = documentElementText(xml);
  const fast = cut(body);
  if (fast !== undefined) return fast;
  let root: XmlElement;
  try {
    root = parseXml(body);
  } catch {
    return undefined;
  }
  const part = packagePart(root, '', 'edm');
  return part.kind === 'part' ? documentElementText(part.xml) : undefined;
}
