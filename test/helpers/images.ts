/**
 * Small real images for the media directory of the binary and IIIF tests,
 * written from bytes: a PNG (RFC 2083: signature, IHDR, one zlib IDAT, IEND)
 * and a baseline JPEG (ITU T.81) of one grey: every 8×8 block's DC difference
 * and AC run are zero, so one-symbol Huffman tables code each block in two
 * bits. Both decode in any viewer; their headers carry the size asked for.
 */
import { crc32, deflateSync } from 'node:zlib';

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A width × height PNG, 8-bit RGB, every pixel `rgb`. */
export function pngImage(width: number, height: number, rgb: [number, number, number] = [200, 30, 30]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB, deflate, adaptive filters, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function segment(marker: number, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(0xff00 | marker, 0);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

/** EXIF APP1 with one IFD0 entry: Orientation (tag 0x0112, SHORT). */
function exifOrientation(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4); // IFD0 right after the header
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(0x0112, 10);
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14); // count
  tiff.writeUInt16BE(orientation, 18); // value, left-justified in the 4 bytes
  tiff.writeUInt32BE(0, 22); // no next IFD
  return segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]));
}

/** A width × height greyscale baseline JPEG, mid grey; with `orientation`, an EXIF Orientation tag. */
export function jpegImage(width: number, height: number, options: { orientation?: number } = {}): Buffer {
  const jfif = segment(0xe0, Buffer.from([0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]));
  const dqt = segment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)]));
  const sof = Buffer.alloc(9);
  sof[0] = 8; // precision
  sof.writeUInt16BE(height, 1);
  sof.writeUInt16BE(width, 3);
  sof.set([1, 1, 0x11, 0], 5); // one component, id 1, sampling 1×1, quantisation table 0
  // Huffman tables with one code of length 1 ("0"): DC category 0, AC 0x00 (end of block).
  const oneSymbol = (tableClassAndId: number) => Buffer.concat([Buffer.from([tableClassAndId, 1]), Buffer.alloc(15), Buffer.from([0])]);
  const dht = segment(0xc4, Buffer.concat([oneSymbol(0x00), oneSymbol(0x10)]));
  const sos = segment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0]));
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const bits = blocks * 2;
  const scan = Buffer.alloc(Math.ceil(bits / 8), 0);
  if (bits % 8 !== 0) scan[scan.length - 1] = (1 << (8 - (bits % 8))) - 1; // pad the last byte with 1 bits
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    jfif,
    ...(options.orientation === undefined ? [] : [exifOrientation(options.orientation)]),
    dqt,
    segment(0xc0, sof),
    dht,
    sos,
    scan,
    Buffer.from([0xff, 0xd9]),
  ]);
}
