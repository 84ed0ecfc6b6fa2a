// decodeChunks: UTF-8 cut anywhere decodes as a whole; a bad byte is located exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeChunks, firstInvalidUtf8, NotUtf8Error } from '../../src/ingest/edm/decodeChunks.js';

async function decode(chunks: Array<Buffer | string>): Promise<string> {
  let text = '';
  async function* input(): AsyncGenerator<Buffer | string> {
    yield* chunks;
  }
  for await (const piece of decodeChunks(input())) text += piece;
  return text;
}

test('characters of 1 to 4 bytes split at every byte', async () => {
  const text = 'a é € 𝄞 Münkwitz, Stanič';
  const bytes = Buffer.from(text, 'utf8');
  assert.equal(await decode([...bytes].map((b) => Buffer.from([b]))), text);
  for (let cut = 0; cut <= bytes.length; cut++)
    assert.equal(await decode([bytes.subarray(0, cut), bytes.subarray(cut)]), text, `cut at ${cut}`);
});

test('a byte-order mark at the start is dropped, one later is kept', async () => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  assert.equal(await decode([Buffer.concat([bom, Buffer.from('<a/>')])]), '<a/>');
  assert.equal(await decode([bom.subarray(0, 1), bom.subarray(1), Buffer.from('<a/>')]), '<a/>');
  assert.equal(await decode(['\uFEFF<a/>']), '<a/>');
  assert.equal(await decode([Buffer.from('<a>'), bom, Buffer.from('</a>')]), '<a>\uFEFF</a>');
});

test('the first invalid byte, by the rules of RFC 3629', () => {
  const at = (bytes: number[]): number => firstInvalidUtf8(Uint8Array.from(bytes));
  assert.equal(at([0x61, 0xc3, 0xa9]), -1);
  assert.equal(at([0x61, 0xe9, 0x74]), 1); // Latin-1 é
  assert.equal(at([0xc0, 0xaf]), 0); // overlong
  assert.equal(at([0xed, 0xa0, 0x80]), 0); // a surrogate
  assert.equal(at([0xf4, 0x90, 0x80, 0x80]), 0); // above U+10FFFF
  assert.equal(at([0x61, 0xe2, 0x82]), 1); // cut short
});

test('bad bytes: the valid text before them is handed on, then NotUtf8Error with the offset', async () => {
  const pieces: string[] = [];
  async function* input(): AsyncGenerator<Buffer> {
    yield Buffer.from('<a>été');
    yield Buffer.from([0x20, 0xe9, 0x74, 0xe9]);
  }
  await assert.rejects(
    async () => {
      for await (const piece of decodeChunks(input())) pieces.push(piece);
    },
    (error: unknown) =>
      error instanceof NotUtf8Error &&
      error.byteOffset === 9 &&
      error.byte === 0xe9 &&
      error.message === 'invalid UTF-8 byte 0xe9 at byte offset 9',
  );
  assert.equal(pieces.join(''), '<a>été ');
});
