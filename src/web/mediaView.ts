/**
 * Which of an item's media the pages can show (docs/pages.md "Images"): a file the
 * operator's media directory (`media.path`) holds is shown from there; one it does not hold is
 * shown, for a package built from EDM, from its URL at its origin when `media.origins` names
 * that origin (the CSP allows exactly those), and for any other package from `media.baseUrl`
 * when that is set (`/binary/…` redirects there); with none, the pages write a placeholder
 * naming the media type instead of an `<img>` that could only break.
 */
import { binarySegments, type MediaDirectory } from '../media/mediaDirectory.js';
import { previewRendition, type MediaDownload, type MediaImage, type Rendition } from './itemView.js';
import type { Lang, Messages } from './messages.js';

export interface MediaSource {
  /** undefined when `media.path` is "". */
  directory: MediaDirectory | undefined;
  /** `media.baseUrl`; "" for none. */
  baseUrl: string;
  /** `media.origins`: where a record built from EDM may show its media from. */
  origins: readonly string[];
}

/** Whether the page may show a URL at its origin: http(s), of an origin `media.origins` names. */
export function allowedOrigin(source: MediaSource, url: string): boolean {
  if (url === '') return false;
  try {
    const u = new URL(url);
    return (u.protocol === 'http:' || u.protocol === 'https:') && source.origins.includes(u.origin);
  } catch {
    return false;
  }
}

export interface ShownImage {
  /** false: no source holds it; the page shows the placeholder alone. */
  shown: boolean;
  /** The rendition in the page. */
  src: string;
  /** The largest rendition, opened by the picture's link. */
  href: string;
  name: string;
  /** The media type in words, for the placeholder: `Bild · JPEG`. */
  kind: string;
  /** Not shown but at an origin the CSP does not allow: the placeholder links there. */
  elsewhere: string;
  /** `JPEG`, `1,2 MB`: the type and, when the media directory holds the largest rendition (`href`), its size. */
  facts: string[];
}

export interface ShownFile {
  shown: boolean;
  href: string;
  name: string;
  /** `PDF`, `MP4`, `1,2 MB`: type and, when the media directory holds the file, its size. */
  facts: string[];
  /** Sound and film play in the browser's own `<audio>` and `<video>`; '' for other files. */
  player: 'audio' | 'video' | '';
}

async function localSize(source: MediaSource, href: string): Promise<number | undefined> {
  if (source.directory === undefined || !href.startsWith('/binary/')) return undefined;
  // The package's path is data: it gets the same checks as a request's (src/http/routes/binaries.ts).
  const segments = binarySegments(href.slice('/binary/'.length));
  return segments === undefined ? undefined : (await source.directory.find(segments))?.size;
}

/** Whether the media directory holds a `/binary/…` path. */
export async function canShowLocally(source: MediaSource, href: string): Promise<boolean> {
  return href !== '' && (await localSize(source, href)) !== undefined;
}

/** Whether a `/binary/…` path can be shown: in the media directory, or from `media.baseUrl`. */
export async function canShow(source: MediaSource, href: string): Promise<boolean> {
  if (href === '') return false;
  return source.baseUrl !== '' || (await localSize(source, href)) !== undefined;
}

/** `image/jpeg` → `JPEG`, `application/pdf` → `PDF`, `audio/x-wav` → `WAV`; '' for none or an unnamed octet stream. */
export function typeName(mimetype: string): string {
  const sub = mimetype.split(';')[0]!.trim().toLowerCase().split('/')[1] ?? '';
  if (sub === '' || sub === 'octet-stream') return '';
  return sub
    .replace(/^(x-|vnd\.)/, '')
    .replace(/\+xml$/, '')
    .toUpperCase();
}

function sizeText(bytes: number, lang: Lang): string {
  const [value, unit] = bytes < 1000 ? [bytes, 'byte'] : bytes < 1_000_000 ? [bytes / 1000, 'kilobyte'] : [bytes / 1_000_000, 'megabyte'];
  return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(value);
}

export async function shownImages(images: readonly MediaImage[], source: MediaSource, lang: Lang, t: Messages): Promise<ShownImage[]> {
  const out: ShownImage[] = [];
  for (const image of images) {
    const local: Rendition[] = [];
    const sizes = new Map<string, number>();
    for (const r of image.renditions) {
      const size = await localSize(source, r.href);
      if (size !== undefined) {
        local.push(r);
        sizes.set(r.href, size);
      }
    }
    // The directory's renditions first; then an EDM record's own URL at its origin, which
    // media.baseUrl (the real service's binaries) does not have under our path; the others from media.baseUrl.
    const atOrigin = local.length === 0 && image.origin !== '' && allowedOrigin(source, image.origin);
    const usable = local.length > 0 ? local : image.origin === '' && source.baseUrl !== '' ? image.renditions : [];
    const type = typeName(image.mimetype) || /\.([a-z]+)$/i.exec(image.renditions[0]?.href ?? '')?.[1]?.toUpperCase() || '';
    const href = atOrigin ? image.origin : (usable[0]?.href ?? '');
    const size = sizes.get(href);
    out.push({
      shown: usable.length > 0 || atOrigin,
      src: atOrigin ? image.origin : (previewRendition(usable)?.href ?? ''),
      href,
      name: image.name,
      kind: type === '' ? t.image : `${t.image} · ${type}`,
      elsewhere: usable.length === 0 && !atOrigin ? image.origin : '',
      facts: [type || t.unknownType, ...(size === undefined ? [] : [sizeText(size, lang)])],
    });
  }
  return out;
}

export async function shownFiles(files: readonly MediaDownload[], source: MediaSource, lang: Lang, t: Messages): Promise<ShownFile[]> {
  const out: ShownFile[] = [];
  for (const file of files) {
    const size = await localSize(source, file.href);
    const facts = [typeName(file.mimetype) || t.unknownType];
    if (size !== undefined) facts.push(sizeText(size, lang));
    // A link may lead anywhere: a file at its origin is offered there, allowed or not.
    const atOrigin = size === undefined && file.origin !== '';
    out.push({
      shown: size !== undefined || atOrigin || source.baseUrl !== '',
      href: atOrigin ? file.origin : file.href,
      name: file.name,
      facts,
      player: /^audio\//i.test(file.mimetype) ? 'audio' : /^video\//i.test(file.mimetype) ? 'video' : '',
    });
  }
  return out;
}

/**
 * The images of a record built from EDM that the pages show from their origin (the folder does
 * not hold them, `media.origins` allows it), by each rendition's `/binary/…` path: the viewer's
 * manifest paints them from there (docs/pages.md "Viewer").
 */
export async function originImages(images: readonly MediaImage[], source: MediaSource): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const image of images) {
    if (image.origin === '' || !allowedOrigin(source, image.origin)) continue;
    let local = false;
    for (const r of image.renditions) if (await canShowLocally(source, r.href)) local = true;
    if (!local) for (const r of image.renditions) out.set(r.href, image.origin);
  }
  return out;
}
