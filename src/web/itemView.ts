/**
 * What the item page shows of a package (docs/pages.md): title, the display fields of
 * its `view`, its media, license and provider. Pure: the package's JSON form in, a view
 * model out (src/web/packageReading.ts reads both package generations).
 */
import { attr, listOf, objectOf, textOf, textsOf, webUrl, type Obj } from './packageReading.js';

export interface DisplayField {
  name: string;
  values: string[];
}

export interface MediaFile {
  /** A path on this server (`/binary/…`). */
  href: string;
  name: string;
  mimetype: string;
  image: boolean;
}

export interface ItemView {
  id: string;
  title: string;
  subtitle: string;
  fields: DisplayField[];
  /** preview/thumbnail: a /binary path, or '' */
  thumbnail: string;
  media: MediaFile[];
  license: { text: string; url: string } | undefined;
  /** view/item/rights: free text (the newer packages write HTML into it: shown as text). */
  rights: string;
  provider: { name: string; url: string } | undefined;
  /** view/item/origin: the record at its provider. */
  origin: string;
}

/** A path on this server for a binary: `/binary/…` as written, a bare ref under /binary/, nothing else. */
export function binaryHref(pathOrRef: string): string {
  const p = pathOrRef.trim();
  if (p === '') return '';
  if (p.startsWith('/binary/'))
    return p
      .split('/')
      .map((s) => encodeURIComponent(safeDecode(s)))
      .join('/');
  if (/^[A-Za-z0-9._-]+$/.test(p)) return `/binary/${p}`;
  return '';
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function displayFields(item: Obj): DisplayField[] {
  const out: DisplayField[] = [];
  for (const group of listOf(item.fields)) {
    if (attr(group, 'usage') !== 'display') continue;
    for (const field of listOf(objectOf(group)?.field)) {
      const f = objectOf(field);
      if (f === undefined) continue;
      const name = textOf(f.name);
      const values = textsOf(f.value);
      if (name === '' || values.length === 0) continue;
      // Repeated fields of one name (the EDM-built packages write one per value) show as one.
      const last = out[out.length - 1];
      if (last !== undefined && last.name === name) last.values.push(...values);
      else out.push({ name, values });
    }
  }
  return out;
}

function mediaFiles(pkg: Obj): MediaFile[] {
  const out: MediaFile[] = [];
  for (const b of listOf(objectOf(pkg.binaries)?.binary)) {
    const href = binaryHref(attr(b, 'path') || attr(b, 'ref'));
    if (href === '') continue;
    const mimetype = attr(b, 'mimetype');
    out.push({ href, name: attr(b, 'name'), mimetype, image: mimetype.startsWith('image/') || /\.(jpe?g|png|gif|webp)$/i.test(href) });
  }
  return out;
}

export function itemView(id: string, pkg: unknown): ItemView {
  const p = objectOf(pkg) ?? {};
  const item = objectOf(objectOf(p.view)?.item) ?? {};
  const preview = objectOf(p.preview) ?? {};
  const license = objectOf(item.license);
  const licenseUrl = license === undefined ? '' : webUrl(attr(license, 'url') || attr(license, 'resource'));
  const licenseText = license === undefined ? '' : textOf(license) || attr(license, 'resource');
  const institution = objectOf(item.institution);
  const providerName = textOf(institution?.name) || textOf(objectOf(p['provider-info'])?.['provider-name']);
  return {
    id,
    title: textOf(preview.title) || textOf(item.title) || id,
    subtitle: textOf(preview.subtitle) || textOf(item.subtitle),
    fields: displayFields(item),
    thumbnail: binaryHref(attr(preview.thumbnail, 'href')),
    media: mediaFiles(p),
    license: licenseText === '' && licenseUrl === '' ? undefined : { text: licenseText || licenseUrl, url: licenseUrl },
    // The newer packages write a link into it as HTML: shown as its text.
    rights: textOf(item.rights).replace(/<[^>]*>/g, ''),
    provider: providerName === '' ? undefined : { name: providerName, url: webUrl(textOf(institution?.url)) },
    origin: webUrl(textOf(item.origin)),
  };
}
