/**
 * `heritage-api index status|verify|rebuild` (docs/cli.md): where the search indexes are,
 * which generation a start reads, whether it verifies, and a rebuild from the store.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli } from '../helpers/cli.js';
import { INDEX_FORMAT } from '../../src/search/indexFiles.js';
import { CORTEX_DIR, FIXTURES } from '../helpers/paths.js';

test('index status, verify and rebuild say what is on disk and build it from the store', { timeout: 300_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'heritage-api-index-cli-'));
  const db = join(tmp, 'h.db');
  const dir = `${db}.search`;
  try {
    assert.equal((await cli(['--db', db, 'ingest', 'items', CORTEX_DIR])).code, 0);
    assert.equal((await cli(['--db', db, 'ingest', 'entities', `${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`])).code, 0);

    const none = await cli(['--db', db, 'index', 'status']);
    assert.deepEqual(none, {
      code: 1,
      out: [`Search index: ${dir}`],
      err: [`no search index in ${dir}: a start builds a new one from the store (heritage-api index rebuild does it now).`],
    });

    const rebuilt = await cli(['--db', db, 'index', 'rebuild']);
    assert.equal(rebuilt.code, 0, rebuilt.err.join('\n'));
    assert.deepEqual(rebuilt.err, []);
    assert.match(
      rebuilt.out.join('\n'),
      new RegExp(
        `^Built the search indexes from the store in \\d+\\.\\d s \\(1222 persons, \\d+ items\\) and wrote them to ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} as generation 1\\. A server reads them at its next start\\.$`,
      ),
    );

    const status = await cli(['--db', db, 'index', 'status']);
    assert.equal(status.code, 0);
    assert.deepEqual(status.err, []);
    assert.equal(status.out[0], `Search index: ${dir}`);
    assert.match(
      status.out[1]!,
      new RegExp(`^Generation 1 \\(format ${INDEX_FORMAT}\\), written \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z, of store [0-9a-f]{32}\\.$`),
    );
    assert.match(status.out[2]!, /^ {2}persons: 1222 documents, \d+\.\d MB, through person:log:\d+ \(person-000001-[0-9a-f]{8}\.seg\)$/);
    assert.match(status.out[3]!, /^ {2}items: \d+ documents, \d+\.\d MB, through item:log:\d+ \(item-000001-[0-9a-f]{8}\.seg\)$/);

    const verified = await cli(['--db', db, 'index', 'verify']);
    assert.equal(verified.code, 0);
    assert.match(
      verified.out.join('\n'),
      new RegExp(
        `^${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: generation 1 verified: \\d+ sections match their checksums; read back, it holds 1222 persons and \\d+ items\\.$`,
      ),
    );

    // a damaged section is named, and so is what a start does
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest-000001.json'), 'utf8')) as {
      kinds: { person: { file: string; sections: Array<{ name: string; offset: number; bytes: number }> } };
    };
    const section = manifest.kinds.person.sections.find((s) => s.name === 'ids.bytes')!;
    const seg = join(dir, manifest.kinds.person.file);
    const bytes = readFileSync(seg);
    bytes[section.offset + 3]! ^= 1;
    writeFileSync(seg, bytes);
    const damaged = await cli(['--db', db, 'index', 'verify']);
    assert.deepEqual(damaged, {
      code: 1,
      out: [],
      err: [
        `${seg} is damaged: section ids.bytes fails its checksum: a start builds a new one from the store (heritage-api index rebuild does it now).`,
      ],
    });

    // a rebuild writes a generation that verifies; the damaged one stays as the one before
    assert.equal((await cli(['--db', db, 'index', 'rebuild'])).code, 0);
    assert.equal((await cli(['--db', db, 'index', 'verify'])).code, 0);
    assert.deepEqual(
      readdirSync(dir)
        .filter((f) => /^manifest-\d+\.json$/.test(f))
        .sort(),
      ['manifest-000001.json', 'manifest-000002.json'],
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
