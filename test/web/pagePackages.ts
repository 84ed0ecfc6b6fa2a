/**
 * Packages for the page tests, shaped as the real ones (fixtures/items/cortex/NF42…):
 * properties, a ProvidedCHO with its parent, indexing-profile facets, preview and view
 * with display fields, license and institution. Their titles hold markup (`<script>`,
 * `]]>`, quotes) that every page must escape (docs/pages.md "Built for the web as it is").
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { jpegImage } from '../helpers/images.js';
import { tempDir } from '../helpers/tempDir.js';

export interface PagePackage {
  id: string;
  title: string;
  parent?: string;
  position?: string;
  /** facet name → values */
  facets?: Record<string, string[]>;
  fields?: Array<[string, string]>;
  /** `<binary>` attributes, in order. */
  binaries?: Array<Record<string, string>>;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function pageCortexXml(p: PagePackage): string {
  const uri = (id: string) => `http://www.deutsche-digitale-bibliothek.de/item/${id}`;
  const facets = Object.entries(p.facets ?? {})
    .map(([name, values]) => `<facet name="${esc(name)}">${values.map((v) => `<value>${esc(v)}</value>`).join('')}</facet>`)
    .join('');
  const fields = (p.fields ?? [])
    .map(([name, value], i) => `<ns4:field id="f${i}"><ns4:name>${esc(name)}</ns4:name><ns4:value>${esc(value)}</ns4:value></ns4:field>`)
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<cortex xmlns="http://www.deutsche-digitale-bibliothek.de/cortex" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" ' +
    'xmlns:ns4="http://www.deutsche-digitale-bibliothek.de/item" ' +
    'xmlns:edm="http://www.europeana.eu/schemas/edm/" xmlns:dc="http://purl.org/dc/elements/1.1/" ' +
    'xmlns:dcterms="http://purl.org/dc/terms/" xmlns:ddb="http://www.deutsche-digitale-bibliothek.de/edm/">' +
    `<properties><item-id>${esc(p.id)}</item-id><ingest-id>1</ingest-id><ingest-date>26-11-21 12:00:00</ingest-date><cortex-type>Kultur</cortex-type></properties>` +
    `<edm><rdf:RDF><edm:ProvidedCHO rdf:about="${esc(uri(p.id))}"><dc:title>${esc(p.title)}</dc:title>` +
    (p.position === undefined ? '' : `<ddb:hierarchyPosition>${esc(p.position)}</ddb:hierarchyPosition>`) +
    (p.parent === undefined ? '' : `<dcterms:isPartOf rdf:resource="${esc(uri(p.parent))}"/>`) +
    '</edm:ProvidedCHO></rdf:RDF></edm>' +
    `<indexing-profile><item-id>${esc(p.id)}</item-id>${facets}</indexing-profile>` +
    `<preview type="Kultur" media="text"><title>${esc(p.title)}</title><subtitle>${esc(`Sub ${p.title}`)}</subtitle><thumbnail href="/binary/${esc(p.id)}/list/1.jpg"/></preview>` +
    `<view><ns4:item><ns4:identifier>${esc(p.id)}</ns4:identifier><ns4:label>${esc(p.title)}</ns4:label><ns4:title>${esc(p.title)}</ns4:title>` +
    `<ns4:subtitle>${esc(`Sub ${p.title}`)}</ns4:subtitle><ns4:rights></ns4:rights><ns4:origin>javascript:alert(1)</ns4:origin><ns4:category>Kultur</ns4:category><ns4:media>text</ns4:media>` +
    '<ns4:license rdf:resource="http://creativecommons.org/publicdomain/mark/1.0/" url="http://creativecommons.org/publicdomain/mark/1.0/deed.de">Public Domain &lt;b&gt;Mark&lt;/b&gt;</ns4:license>' +
    '<ns4:institution><ns4:url>http://example.org/archive</ns4:url><ns4:id>X</ns4:id><ns4:name>Archiv &lt;i&gt;Test&lt;/i&gt; ]]&gt;</ns4:name></ns4:institution>' +
    `<ns4:fields usage="display">${fields}</ns4:fields></ns4:item></view>` +
    (p.binaries === undefined
      ? ''
      : `<binaries>${p.binaries
          .map(
            (b) =>
              `<binary ${Object.entries(b)
                .map(([k, v]) => `${k}="${esc(v)}"`)
                .join(' ')}/>`,
          )
          .join('')}</binaries>`) +
    '</cortex>'
  );
}

export function writePagePackages(packages: readonly PagePackage[]): string {
  const dir = tempDir('pages');
  for (const p of packages) writeFileSync(join(dir, `${p.id}.xml`), pageCortexXml(p));
  return dir;
}

export const HOSTILE = '<script>alert("x")</script> ]]> & \'quoted\'';

/** A fonds, a series in it and 25 files in the series (three levels, children over one page), and one stand-alone item. */
export function hostileArchive(): PagePackage[] {
  const facets = (extra: Record<string, string[]> = {}) => ({
    type_fct: ['mediatype_003'],
    sector_fct: ['sec_01'],
    provider_fct: [`Archiv <i>Test</i> ]]>`],
    place_fct: ['Leipzig'],
    ...extra,
  });
  const out: PagePackage[] = [
    { id: 'FONDS', title: `Fonds ${HOSTILE}`, facets: facets(), fields: [['Bestand', `Fonds ${HOSTILE}`]] },
    { id: 'SERIES', title: `Series ${HOSTILE}`, parent: 'FONDS', position: '1', facets: facets() },
  ];
  for (let i = 1; i <= 25; i++) {
    const n = String(i).padStart(2, '0');
    out.push({
      id: `FILE${n}`,
      title: `File ${n} ${HOSTILE}`,
      parent: 'SERIES',
      position: String(i),
      facets: facets(
        i <= 3 ? { affiliate_fct: ['Goethe, Johann Wolfgang von'], affiliate_fct_normdata: ['http://d-nb.info/gnd/118540238'] } : {},
      ),
      fields: [['Signatur', `Sig ${n} <b>bold</b>`]],
      ...(i === 1 ? { binaries: FILE01_BINARIES } : {}),
    });
  }
  return out;
}

const rendition = (category: string, position: string, ext = 'jpg', mimetype = 'image/jpeg', name = `Blatt ${position} ${HOSTILE}`) => ({
  category,
  primary: position === '1' ? 'true' : 'false',
  position,
  path: `/binary/FILE01/${category}/${position}.${ext}`,
  mimetype,
  name,
});

/**
 * FILE01's binaries as the real packages list them: one image in five renditions, a second
 * image in one, a PDF and an unnamed `.bin`. writePageMedia holds some of them.
 */
export const FILE01_BINARIES = [
  ...['full', 'list', 'grid', 'mvth', 'mvpr'].map((c) => rendition(c, '1')),
  rendition('full', '2'),
  rendition('doc', '3', 'pdf', 'application/pdf', 'Findbuch'),
  rendition('data', '4', 'bin', 'application/octet-stream', ''),
];

/**
 * A generated media folder (config media.path) holding FILE01's `list`, `mvpr` and `full`
 * renditions of image 1 and its PDF (2,500 bytes), and FILE02's thumbnail; nothing else.
 */
export function writePageMedia(): string {
  const dir = tempDir('page-media');
  const put = (path: string, bytes: Buffer) => {
    mkdirSync(join(dir, dirname(path)), { recursive: true });
    writeFileSync(join(dir, path), bytes);
  };
  for (const c of ['list', 'mvpr', 'full']) put(`FILE01/${c}/1.jpg`, jpegImage(64, 48));
  put('FILE01/doc/3.pdf', Buffer.alloc(2500, 0x20));
  put('FILE02/list/1.jpg', jpegImage(32, 32));
  return dir;
}
