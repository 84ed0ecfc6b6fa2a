// decodeChunks: the reader's input (Buffers or strings, cut anywhere) as UTF-8 text.
//
// Why not a streaming TextDecoder alone: when a file is not UTF-8 the operator must be
// told where, and a fatal TextDecoder only says that it failed. So each chunk is cut at
// its last complete character (the rest is carried into the next chunk) and decoded
// strictly; on failure the first bad byte is located, the valid text before it is still
// handed on (records completed before it are kept), and NotUtf8Error says where.
// EDM RDF/XML is UTF-8 in practice (every sample in fixtures/items/edm/); other encodings
// are reported, not guessed. A byte-order mark at the very start is dropped (XML 1.0, 4.3.3).

export class NotUtf8Error extends Error {
  /** 0-based offset of the first byte that is not UTF-8, from the start of the input. */
  readonly byteOffset: number;
  readonly byte: number | null;

  constructor(byteOffset: number, byte: number | null) {
    super(
      byte === null
        ? `the input ends inside a UTF-8 character (byte offset ${byteOffset})`
        : `invalid UTF-8 byte 0x${byte.toString(16).padStart(2, '0')} at byte offset ${byteOffset}`,
    );
    this.name = 'NotUtf8Error';
    this.byteOffset = byteOffset;
    this.byte = byte;
  }
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Length of the sequence a lead byte starts (RFC 3629), 0 for a byte that cannot lead. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** Index of the first byte that does not start a well-formed sequence (RFC 3629, 4), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    const length = sequenceLength(lead);
    if (length === 0 || i + length > bytes.length) return i;
    if (length > 1) {
      // The second byte's range is narrower after E0, ED, F0, F4 (no overlongs, surrogates, > U+10FFFF).
      const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
      const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
      const second = bytes[i + 1]!;
      if (second < low || second > high) return i;
      for (let k = 2; k < length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    }
    i += length;
  }
  return -1;
}

/** Where the incomplete character at the end of `bytes` starts (bytes.length when none). */
function completeLength(bytes: Uint8Array): number {
  for (let j = bytes.length - 1; j >= 0 && j >= bytes.length - 4; j--) {
    const byte = bytes[j]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const length = sequenceLength(byte);
    return length > 0 && j + length > bytes.length ? j : bytes.length;
  }
  return bytes.length;
}

export async function* decodeChunks(input: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  let carry: Uint8Array = new Uint8Array(0);
  let consumed = 0; // bytes of the input before `carry`
  let first = true;
  for await (const chunk of input) {
    if (typeof chunk === 'string') {
      if (carry.length > 0) throw new NotUtf8Error(consumed, null);
      const text = first ? chunk.replace(/^\uFEFF/, '') : chunk;
      first = false;
      if (text !== '') yield text;
      continue;
    }
    let bytes: Uint8Array = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    if (first && bytes.length < 3 && bytes.every((b, i) => b === [0xef, 0xbb, 0xbf][i])) {
      carry = bytes; // maybe the start of a byte-order mark: wait for more
      continue;
    }
    if (first) {
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
        bytes = bytes.subarray(3);
        consumed += 3;
      }
      first = false;
    }
    const complete = completeLength(bytes);
    const head = bytes.subarray(0, complete);
    try {
      const text = strict.decode(head);
      if (text !== '') yield text;
    } catch {
      const bad = firstInvalidUtf8(head);
      const valid = strict.decode(head.subarray(0, bad));
      if (valid !== '') yield valid;
      throw new NotUtf8Error(consumed + bad, head[bad] ?? null);
    }
    consumed += complete;
    carry = bytes.slice(complete);
  }
  if (carry.length > 0) {
    // A short input that is only (part of) a byte-order mark, or a truncated character.
    const isBomStart = first && carry.every((b, i) => b === [0xef, 0xbb, 0xbf][i]);
    if (!isBomStart) throw new NotUtf8Error(consumed, null);
  }
}
