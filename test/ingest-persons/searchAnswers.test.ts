/**
 * Saved answers of the person search as input of `ingest entities`: what a user saved
 * from this service's `/entities` or the DDB's `/search/person` (`{"numberOfResults",
 * "results": [{"name", "docs": [entities], "numberOfDocs"}], "facets", ...}`), one
 * answer per file, one per line (pages appended with `>>`), or an array of them. The
 * persons loaded from the saved answers answer the same search with the same body.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPersons } from '../../src/ingest/persons/readPersons.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';

const SEARCH = '/entities?query=*&sort=ALPHA_ASC&rows=100';

async function answer(t: TestApp, url: string): Promise<string> {
  const res = await t.app.inject({ url, headers: t.json });
  assert.equal(res.statusCode, 200, `${url}: ${res.body.slice(0, 200)}`);
  return res.body;
}

test(
  'saved /entities and /search/person answers load as persons that answer the search with the same body',
  { timeout: 300_000 },
  async () => {
    const source = await startTestApp(BACKENDS[0]!, { loadEntities: [`${FIXTURES}persons/lobid-gnd`] });
    const dir = tempDir('answers');
    let original: string;
    const files: Record<string, string> = {};
    try {
      original = await answer(source, SEARCH);
      const total = (JSON.parse(original) as { numberOfResults: number }).numberOfResults;
      assert.ok(total >= 10, String(total));
      files['search-person.json'] = await answer(source, SEARCH.replace('/entities', '/search/person'));
      // Pages appended to one file, one answer a line.
      const pages = [];
      for (let offset = 0; offset < total; offset += 4)
        pages.push(await answer(source, `/entities?query=*&sort=ALPHA_ASC&rows=4&offset=${offset}`));
      files['pages.jsonl'] = `${pages.join('\n')}\n`;
      files['pages-array.json'] = `[${pages.join(',')}]`;
    } finally {
      await source.close();
    }
    for (const [name, text] of Object.entries(files)) {
      const path = join(dir, name);
      writeFileSync(path, text);
      const db = join(tempDir('answers-db'), 'h.db');
      const run = await cli(['--db', db, 'ingest', 'entities', path]);
      assert.equal(run.code, 0, `${name}: ${run.err.join('\n')}`);
      const total = (JSON.parse(original) as { numberOfResults: number }).numberOfResults;
      assert.match(run.out[0]!, new RegExp(`: ${total} new, 0 updated, 0 unchanged, 0 skipped\\.$`), name);
      const loaded = await startTestApp(BACKENDS[0]!, { loadEntities: [path] });
      try {
        assert.equal(await answer(loaded, SEARCH), original, name);
      } finally {
        await loaded.close();
      }
    }
  },
);

test('a bad doc in a saved answer is reported at its result and doc; the others are read', () => {
  const saved = JSON.stringify({
    numberOfResults: 3,
    results: [
      {
        name: 'single',
        docs: [
          { id: 'http://d-nb.info/gnd/118540238', type: 'person', preferredName: 'Goethe, Johann Wolfgang von' },
          { id: '118540238', type: 'person', preferredName: 'no URI' },
          { title: 'not an entity' },
        ],
        numberOfDocs: 3,
      },
    ],
    facets: [],
  });
  const results = readPersons(saved).map((r) => [r.kind, r.position]);
  assert.deepEqual(results, [
    ['person', 'result 1, doc 1'],
    ['error', 'result 1, doc 2'],
    ['error', 'result 1, doc 3'],
  ]);
  const lines = readPersons(`${saved}\n${saved}\n`).map((r) => `${r.kind} ${r.position}`);
  assert.deepEqual(lines, [
    'person line 1, result 1, doc 1',
    'error line 1, result 1, doc 2',
    'error line 1, result 1, doc 3',
    'person line 2, result 1, doc 1',
    'error line 2, result 1, doc 2',
    'error line 2, result 1, doc 3',
  ]);
});
