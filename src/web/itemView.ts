/**
 * What the item page shows of a package (docs/pages.md): title, the display fields of
 * its `view`, its media, license and provider. Pure: the package's JSON form in, a view
 * model out (src/web/packageReading.ts reads both package generations).
 */
import { edmMediaUrls } from './edmMedia.js';
import { attr, listOf, objectOf, textOf, webUrl, type Obj } from './packageReading.js';

export interface DisplayField {
  name: string;
  values: string[];
  /** The authority URI each value names (`@resource`, a GND person's for `(wer)`), '' where none; as long as values. */
  resources: string[];
}

/** One rendition of an image: a path on this server and the package's name for its size. */
export interface Rendition {
  /** A path on this server (`/binary/…`). */
  href: string;
  /** `full`, `mvpr`, `list`, `grid`, `mvth` in the real packages; '' when the package names none. */
  variant: string;
}

/** One image of the item: its renditions (the real packages list each position in up to five sizes), largest first. */
export interface MediaImage {
  renditions: Rendition[];
  name: string;
  mimetype: string;
  /** Its URL at its origin, for a package built from EDM (./edmMedia.ts); '' for none. */
  origin: string;
}

/** A file that is no image (a PDF, a sound, an unnamed `.bin`): offered for download, never put into `<img>`. */
export interface MediaDownload {
  href: string;
  name: string;
  mimetype: string;
  /** Its URL at its origin, for a package built from EDM (./edmMedia.ts); '' for none. */
  origin: string;
}

export interface ItemView {
  id: string;
  title: string;
  subtitle: string;
  fields: DisplayField[];
  /** preview/thumbnail: a /binary path, or '' */
  thumbnail: string;
  images: MediaImage[];
  files: MediaDownload[];
  /** Whether `/items/{id}/iiif` answers a manifest: a binary with a position (src/http/bodies/iiifManifest.ts). */
  hasManifest: boolean;
  /** Whether the package has an `edm` part: the item's EDM graph can be downloaded. */
  hasEdm: boolean;
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
      const given = listOf(f.value).filter((v) => textOf(v).trim() !== '');
      const values = given.map(textOf);
      const resources = given.map((v) => attr(v, 'resource'));
      if (name === '' || values.length === 0) continue;
      // Repeated fields of one name (the EDM-built packages write one per value) show as one.
      const last = out[out.length - 1];
      if (last !== undefined && last.name === name) {
        last.values.push(...values);
        last.resources.push(...resources);
      } else out.push({ name, values, resources });
    }
  }
  return out;
}

/** The real packages' renditions, largest first (the order of the IIIF manifest's canvases, docs/iiif.md). */
const RENDITIONS = ['full', 'mvpr', 'list', 'grid', 'mvth'];
const rank = (variant: string): number => (RENDITIONS.includes(variant) ? RENDITIONS.indexOf(variant) : RENDITIONS.length);

const IMAGE_EXTENSION = /\.(jpe?g|png|gif|webp|avif)$/i;

function isImage(mimetype: string, href: string): boolean {
  // The type the package names decides; a path's extension only when it names none.
  return mimetype === '' ? IMAGE_EXTENSION.test(href) : mimetype.toLowerCase().startsWith('image/');
}

/**
 * The package's binaries as images and downloads. Renditions of one image (one `position`,
 * or one `/binary/<id>/<variant>/<n>` path without it) are one image.
 */
function mediaOf(pkg: Obj): { images: MediaImage[]; files: MediaDownload[]; hasManifest: boolean } {
  const images = new Map<string, MediaImage>();
  const files: MediaDownload[] = [];
  const origins = edmMediaUrls(pkg);
  let hasManifest = false;
  for (const b of listOf(objectOf(pkg.binaries)?.binary)) {
    const href = binaryHref(attr(b, 'path') || attr(b, 'ref'));
    if (href === '') continue;
    if (Number.isInteger(Number(attr(b, 'position'))) && attr(b, 'position') !== '') hasManifest = true;
    const mimetype = attr(b, 'mimetype');
    const name = attr(b, 'name');
    const origin = origins?.get(Number(attr(b, 'position'))) ?? '';
    if (!isImage(mimetype, href)) {
      files.push({ href, name, mimetype: mimetype || 'application/octet-stream', origin });
      continue;
    }
    const path = /^\/binary\/([^/]+)\/([^/]+)\/([^/.]+)\.[^/]*$/.exec(href);
    const variant = attr(b, 'category') || (path?.[2] ?? '');
    const position = attr(b, 'position') || (path?.[3] ?? '');
    const key = position === '' ? href : `${position}`;
    const image = images.get(key);
    if (image === undefined) images.set(key, { renditions: [{ href, variant }], name, mimetype, origin });
    else if (!image.renditions.some((r) => r.href === href)) image.renditions.push({ href, variant });
  }
  for (const image of images.values()) image.renditions.sort((a, b) => rank(a.variant) - rank(b.variant));
  return { images: [...images.values()], files, hasManifest };
}

/**
 * The rendition the item page shows: the smallest that still fills its picture (`mvpr`, the
 * real service's preview size, or the next larger), else the largest there is.
 */
export function previewRendition(renditions: readonly Rendition[]): Rendition | undefined {
  const fitting = renditions.filter((r) => rank(r.variant) <= rank('mvpr'));
  return fitting[fitting.length - 1] ?? renditions[0];
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
    ...mediaOf(p),
    hasEdm: objectOf(p.edm) !== undefined,
    license: licenseText === '' && licenseUrl === '' ? undefined : { text: licenseText || licenseUrl, url: licenseUrl },
    // The newer packages write a link into it as HTML: shown as its text.
    rights: textOf(item.rights).replace(/<[^>]*>/g, ''),
    provider: providerName === '' ? undefined : { name: providerName, url: webUrl(textOf(institution?.url)) },
    origin: webUrl(textOf(item.origin)),
  };
}
