/**
 * The operator's media directory (config `media.path`, docs/api.md "GET /binary/{path}"):
 * which file a binary path names, never one outside the directory, and the
 * pixel size of an image, read from its header.
 *
 * A binary path is checked twice: each segment on its own (`binarySegments`:
 * no empty segment, no `.`-leading name, no `..`, nothing but the characters
 * of item ids, after percent-decoding, so `%2F`, `%2E%2E` and `%00` are
 * refused), then the file found: its real path (symbolic links resolved) must
 * lie inside the real path of the directory and be a regular file.
 */
import { realpathSync, statSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { imageSizeFromFile } from 'image-size/fromFile';
import { UsageError } from '../errors.js';
import { LruCache } from '../lruCache.js';
import { isValidItemId } from '../domain/itemIds.js';

/** /binary/<id>/<variant>/<n>.<ext> has three; the real service's /binary/<uuid>.<ext> one. */
const MAX_SEGMENTS = 8;

/**
 * The segments of a binary path as sent (after `/binary/`, still percent-encoded,
 * without the query), or undefined when it is not a valid one.
 */
export function binarySegments(raw: string): string[] | undefined {
  const parts = raw.split('/');
  if (parts.length === 0 || parts.length > MAX_SEGMENTS) return undefined;
  const segments: string[] = [];
  for (const part of parts) {
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return undefined;
    }
    // Each segment follows the rule of item ids: no '/', '\\', NUL, leading '.' or '..'.
    if (!isValidItemId(segment)) return undefined;
    segments.push(segment);
  }
  return segments;
}

export interface MediaFile {
  /** Real path of the file (inside the directory). */
  absolute: string;
  /** The same relative to the directory's real path, `/`-separated, each segment as on disk. */
  relative: string[];
  size: number;
  mtime: Date;
}

export interface ImageSize {
  width: number;
  height: number;
}

/** Sizes remembered, by real path, size and modification time: a manifest of a 500-page book reads 500 headers once. */
const SIZE_CACHE_ENTRIES = 100_000;

export class MediaDirectory {
  private readonly sizes = new LruCache<ImageSize | null>(SIZE_CACHE_ENTRIES, () => 1);

  private constructor(readonly root: string) {}

  /** Checks the directory once, at start: a mistyped media.path must stop the server, not 404 every binary. */
  static open(path: string): MediaDirectory {
    let root: string;
    try {
      root = realpathSync(path);
    } catch (e) {
      throw new UsageError(`media.path '${path}' cannot be read: ${(e as Error).message}`);
    }
    if (!statSync(root).isDirectory()) throw new UsageError(`media.path '${path}' is not a directory.`);
    return new MediaDirectory(root);
  }

  /** The regular file the segments name inside the directory, or undefined (missing, outside, not a file). */
  async find(segments: readonly string[]): Promise<MediaFile | undefined> {
    let absolute: string;
    try {
      absolute = await realpath(join(this.root, ...segments));
    } catch {
      return undefined; // ENOENT, ENOTDIR, ELOOP, EACCES: there is no file to serve
    }
    if (!absolute.startsWith(this.root + sep)) return undefined; // a symbolic link pointing outside
    const stats = await stat(absolute).catch(() => undefined);
    if (!stats?.isFile()) return undefined;
    return { absolute, relative: absolute.slice(this.root.length + 1).split(sep), size: stats.size, mtime: stats.mtime };
  }

  /**
   * Width and height as a viewer shows the image (EXIF orientations 5 to 8 turn
   * it by 90°), or undefined when the header cannot be read (not an image).
   */
  async imageSize(file: MediaFile): Promise<ImageSize | undefined> {
    const key = `${file.size}:${file.mtime.getTime()}:${file.absolute}`;
    const known = this.sizes.get(key);
    if (known !== undefined) return known ?? undefined;
    let size: ImageSize | null = null;
    try {
      const read = await imageSizeFromFile(file.absolute);
      if (read.width > 0 && read.height > 0) {
        const turned = read.orientation !== undefined && read.orientation >= 5 && read.orientation <= 8;
        size = turned ? { width: read.height, height: read.width } : { width: read.width, height: read.height };
      }
    } catch {
      size = null; // not an image type image-size knows, or a damaged header
    }
    this.sizes.set(key, size);
    return size ?? undefined;
  }
}
