/**
 * Which of an item's media the pages can show (docs/pages.md "Images"): a file the
 * operator's media directory (`media.path`) holds is shown from there; one it does not hold is
 * shown from `media.baseUrl` when that is set (`/binary/…` redirects there); with neither, the
 * pages write a placeholder naming the media type instead of an `<img>` that could only break.
 */
import { binarySegments, type MediaDirectory } from '../media/mediaDirectory.js';
import { previewRendition, type MediaDownload, type MediaImage, type Rendition } from './itemView.js';
import type { Lang, Messages } from './messages.js';

export interface MediaSource {
  /** undefined when `media.path` is "". */
  directory: MediaDirectory | undefined;
  /** `media.baseUrl`; "" for none. */
  baseUrl: string;
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
}

export interface ShownFile {
  shown: boolean;
  href: string;
  name: string;
  /** `PDF`, `MP4`, `1,2 MB`: type and, when the media directory holds the file, its size. */
  facts: string[];
}

async function localSize(source: MediaSource, href: string): Promise<number | undefined> {
  if (source.directory === undefined || !href.startsWith('/binary/')) return undefined;
  // The package's path is data: it gets the same checks as a request's (src/http/routes/binaries.ts).
  const segments = binarySegments(href.slice('/binary/'.length));
  return segments === undefined ? undefined : (await source.directory.find(segments))?.size;
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

export async function shownImages(images: readonly MediaImage[], source: MediaSource, t: Messages): Promise<ShownImage[]> {
  const out: ShownImage[] = [];
  for (const image of images) {
    const local: Rendition[] = [];
    for (const r of image.renditions) if ((await localSize(source, r.href)) !== undefined) local.push(r);
    // The directory's renditions first; the others only from media.baseUrl.
    const usable = local.length > 0 ? local : source.baseUrl !== '' ? image.renditions : [];
    const type = typeName(image.mimetype) || /\.([a-z]+)$/i.exec(image.renditions[0]?.href ?? '')?.[1]?.toUpperCase() || '';
    out.push({
      shown: usable.length > 0,
      src: previewRendition(usable)?.href ?? '',
      href: usable[0]?.href ?? '',
      name: image.name,
      kind: type === '' ? t.image : `${t.image} · ${type}`,
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
    out.push({ shown: size !== undefined || source.baseUrl !== '', href: file.href, name: file.name, facts });
  }
  return out;
}
