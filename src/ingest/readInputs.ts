/**
 * Expands the PATH arguments of `heritage-api ingest ...` into input files:
 * files as given, directories recursively (sorted, hidden entries skipped),
 * and `-` for standard input.
 */
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../errors.js';

export interface InputFile {
  /** The path as the operator will recognise it, or "<stdin>". */
  name: string;
  /** The file's path, when it is one on disk (a worker thread may read it itself). */
  path?: string;
  /** The whole file. */
  read: () => Promise<Buffer>;
  /** The file in chunks, for readers that stream (large EDM files). Call once. */
  stream: () => AsyncIterable<Buffer>;
}

async function readStream(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

async function* walk(dir: string, accept: (name: string) => boolean): AsyncGenerator<string> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path, accept);
    else if (entry.isFile() && accept(entry.name)) yield path;
  }
}

/**
 * @param accept which file names inside directories are inputs (files named
 *   explicitly are always read).
 */
export async function* expandInputs(
  paths: readonly string[],
  accept: (name: string) => boolean,
  stdin: NodeJS.ReadableStream = process.stdin,
): AsyncGenerator<InputFile> {
  // Check every path before reading any, so a typo stops the run before it writes anything.
  const kinds = new Map<string, 'dir' | 'file'>();
  for (const path of paths) {
    if (path === '-') continue;
    try {
      kinds.set(path, (await stat(path)).isDirectory() ? 'dir' : 'file');
    } catch {
      throw new UsageError(`Cannot read '${path}': no such file or directory.`);
    }
  }
  for (const path of paths) {
    if (path === '-') {
      yield { name: '<stdin>', read: () => readStream(stdin), stream: () => stdin as AsyncIterable<Buffer> };
    } else if (kinds.get(path) === 'dir') {
      for await (const file of walk(path, accept)) yield fileInput(file);
    } else {
      yield fileInput(path);
    }
  }
}

/**
 * How many input files the paths hold, for the progress bar's total (issue
 * #13, point 9); undefined when it cannot be known (standard input, or a
 * directory that cannot be read, which the load itself then reports).
 */
export async function countInputFiles(paths: readonly string[], accept: (name: string) => boolean): Promise<number | undefined> {
  if (paths.includes('-')) return undefined;
  try {
    let n = 0;
    for (const path of paths) {
      if (!(await stat(path)).isDirectory()) n++;
      else for await (const _ of walk(path, accept)) n++;
    }
    return n;
  } catch {
    return undefined;
  }
}

function fileInput(path: string): InputFile {
  return { name: path, path, read: () => readFile(path), stream: () => createReadStream(path) };
}

/**
 * Decodes UTF-8 strictly: a file that is not UTF-8 is reported, not loaded
 * with replacement characters. A leading byte-order mark is dropped.
 */
export function decodeUtf8(bytes: Buffer): { text: string } | { error: string } {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return { text };
  } catch {
    // Locate the first byte that is not UTF-8: the first U+FFFD of a lenient
    // decode that is not a real U+FFFD (EF BF BD) in the input.
    const lenient = new TextDecoder('utf-8').decode(bytes);
    let at = lenient.indexOf('\uFFFD');
    while (at >= 0) {
      const offset = Buffer.byteLength(lenient.slice(0, at), 'utf8');
      if (!(bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd)) {
        const line = lenient.slice(0, at).split('\n').length;
        return {
          error: `not UTF-8: invalid byte 0x${(bytes[offset] ?? 0).toString(16)} at byte offset ${offset} (line ${line}); convert the file to UTF-8`,
        };
      }
      at = lenient.indexOf('\uFFFD', at + 1);
    }
    return { error: 'not UTF-8; convert the file to UTF-8' };
  }
}

/**
 * Decodes a file whose records are lines (JSON lines) line by line: a line that
 * is not UTF-8 is left empty in the text and named with its reason, so it costs
 * that line alone. `reason` is the file's error for when it is read as one document.
 */
export function decodeUtf8Lines(bytes: Buffer): { text: string; notUtf8?: { reason: string; lines: Map<number, string> } } {
  const whole = decodeUtf8(bytes);
  if ('text' in whole) return { text: whole.text };
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const rows: string[] = [];
  const lines = new Map<number, string>();
  let offset = 0;
  while (offset <= bytes.length) {
    let end = bytes.indexOf(0x0a, offset);
    if (end < 0) end = bytes.length;
    const n = rows.length + 1;
    try {
      rows.push(decoder.decode(bytes.subarray(offset, end)));
    } catch {
      const row = bytes.subarray(offset, end);
      const bad = decodeUtf8(row);
      const detail = 'error' in bad ? /invalid byte 0x[0-9a-f]+/.exec(bad.error)?.[0] : undefined;
      lines.set(n, `not UTF-8${detail === undefined ? '' : `: ${detail}`} on this line; the line was skipped: convert the file to UTF-8`);
      rows.push('');
    }
    offset = end + 1;
  }
  return { text: rows.join('\n'), notUtf8: { reason: whole.error, lines } };
}
