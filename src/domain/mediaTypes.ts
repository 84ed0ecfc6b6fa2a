/**
 * Media types: the DDB media type vocabulary (`type_fct`, spec 2.4; the
 * `media` of preview and view), and MIME types and file extensions of the
 * binaries (`@mimetype`, and the extension in `@path`).
 *
 * The DDB vocabulary (http://ddb.vocnet.org/medientyp/mtNNN, notation
 * mediatype_NNN): 001 Audio, 002 Bild (image), 003 Text, 004 Volltext
 * (full text), 005 Video, 006 Sonstiges (other), 007 ohne Medientyp (none),
 * 008 Institution. The real packages pair mediatype_002 with media "image"
 * (4XUD...) and mediatype_003 with "text" (NF42...).
 */

/** edm:type (EDM's closed list) -> the DDB media type. */
const FROM_EDM_TYPE: Readonly<Record<string, string>> = {
  TEXT: 'mediatype_003',
  IMAGE: 'mediatype_002',
  SOUND: 'mediatype_001',
  VIDEO: 'mediatype_005',
  '3D': 'mediatype_006',
};

export const NO_MEDIA_TYPE = 'mediatype_007';

const MEDIA_WORD: Readonly<Record<string, string>> = {
  mediatype_001: 'audio',
  mediatype_002: 'image',
  mediatype_003: 'text',
  mediatype_004: 'text',
  mediatype_005: 'video',
  mediatype_006: 'other',
  mediatype_007: 'unknown',
  mediatype_008: 'institution',
};

export function mediaTypeOfEdmType(edmType: string): string | undefined {
  return FROM_EDM_TYPE[edmType.trim().toUpperCase()];
}

/** The word of preview/@media and view/media for a DDB media type code. */
export function mediaWord(code: string): string {
  return MEDIA_WORD[code] ?? 'unknown';
}

/** File extension <-> MIME type, for the formats cultural-heritage binaries come in. */
const EXTENSIONS: ReadonlyArray<[string, string]> = [
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['png', 'image/png'],
  ['gif', 'image/gif'],
  ['tif', 'image/tiff'],
  ['tiff', 'image/tiff'],
  ['jp2', 'image/jp2'],
  ['webp', 'image/webp'],
  ['svg', 'image/svg+xml'],
  ['bmp', 'image/bmp'],
  ['pdf', 'application/pdf'],
  ['mp3', 'audio/mpeg'],
  ['wav', 'audio/wav'],
  ['ogg', 'audio/ogg'],
  ['flac', 'audio/flac'],
  ['mp4', 'video/mp4'],
  ['webm', 'video/webm'],
  ['mpg', 'video/mpeg'],
  ['mpeg', 'video/mpeg'],
  ['mov', 'video/quicktime'],
  ['avi', 'video/x-msvideo'],
  ['txt', 'text/plain'],
  ['html', 'text/html'],
  ['htm', 'text/html'],
  ['xml', 'application/xml'],
  ['json', 'application/json'],
  ['glb', 'model/gltf-binary'],
  ['gltf', 'model/gltf+json'],
  ['obj', 'model/obj'],
  ['stl', 'model/stl'],
];

export const UNKNOWN_MIME_TYPE = 'application/octet-stream';

/** The extension of the last path segment of a URL ("" when it has none we know). */
export function extensionOfUrl(url: string): string {
  const path = url.split(/[?#]/)[0] ?? '';
  const ext = /\.([A-Za-z0-9]{1,5})$/.exec(path.split('/').pop() ?? '')?.[1]?.toLowerCase() ?? '';
  return EXTENSIONS.some(([e]) => e === ext) ? ext : '';
}

export function mimeTypeOfExtension(ext: string): string | undefined {
  return EXTENSIONS.find(([e]) => e === ext)?.[1];
}

/** The extension for a MIME type: the first listed (jpg for image/jpeg), or "bin". */
export function extensionOfMimeType(mime: string): string {
  const base = mime.split(';')[0]?.trim().toLowerCase() ?? '';
  return EXTENSIONS.find(([, m]) => m === base)?.[0] ?? 'bin';
}
