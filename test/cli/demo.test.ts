/**
 * The README's quick start as a new user meets it: `heritage-api demo`
 * loads the demo records, creates a key, starts the server and prints two
 * curl commands; both must work as printed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers/tempDir.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

/** Splits a shell command line the way sh does for the simple quoting the demo prints. */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

test('demo prints curl commands that work as printed', { timeout: 180_000 }, async () => {
  const db = join(tempDir('demo'), 'demo.db');
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--db', db, '--log-level', 'warn', 'demo', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d.toString();
        if (out.includes('Stop with Ctrl-C.')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`demo exited with ${code}: ${err}`)));
    });
    assert.match(err, /Loaded demo items: \d+ new/);
    // The home page's URL comes first, and a browser gets the home page there.
    const lines = out.split('\n').filter((l) => l.trim() !== '');
    const home = /^Open the collection in a browser: (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(lines[0] ?? '')?.[1];
    assert.ok(home !== undefined, out);
    const page = await fetch(home, { headers: { accept: 'text/html' } });
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(await page.text(), /<strong>1\.001<\/strong> Objekte/);
    // The DDB packages' images come from the real service's binary URL, which the pages' CSP allows.
    const binary = await fetch(`${home}binary/NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR/list/1.jpg`, { redirect: 'manual' });
    assert.equal(binary.status, 307);
    assert.equal(
      binary.headers.get('location'),
      'https://api.deutsche-digitale-bibliothek.de/binary/NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR/list/1.jpg',
    );
    // And the origin of the MIMO records' images (docs/pages.md "Images").
    assert.match(
      String(page.headers.get('content-security-policy')),
      /img-src 'self' https:\/\/api\.deutsche-digitale-bibliothek\.de http:\/\/www\.mimo-db\.eu;/,
    );
    const curls = out
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('curl '));
    assert.equal(curls.length, 5, out);
    const [parents, aip, edmParents, entities, items] = await Promise.all(
      curls.map((c) => promisify(execFile)('curl', ['-s', '-w', '\\n%{http_code}', ...shellWords(c).slice(1)])),
    );
    const [parentsBody, parentsStatus] = parents!.stdout.split(/\n(?=\d{3}$)/);
    assert.equal(parentsStatus, '200');
    assert.deepEqual(JSON.parse(parentsBody!).hierarchy[0].id, 'NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR');
    const [aipBody, aipStatus] = aip!.stdout.split(/\n(?=\d{3}$)/);
    assert.equal(aipStatus, '200');
    assert.match(aipBody!, /^<\?xml version="1.0" encoding="UTF-8" standalone="yes"\?><cortex /);
    // The HOPE issue loaded from EDM: issue, year, root.
    const [edmBody, edmStatus] = edmParents!.stdout.split(/\n(?=\d{3}$)/);
    assert.equal(edmStatus, '200');
    assert.deepEqual(
      JSON.parse(edmBody!).hierarchy.map((n: { label: string }) => n.label),
      ['Combat (1974)13', 'Combat (1974)', "Combat : hebdomadaire wallon d'action socialiste"],
    );
    const [entitiesBody, entitiesStatus] = entities!.stdout.split(/\n(?=\d{3}$)/);
    assert.equal(entitiesStatus, '200');
    const found = JSON.parse(entitiesBody!);
    assert.equal(found.results[0].docs.length, 2);
    assert.equal(found.facets[3].field, 'person_occupation_fct');
    assert.equal(found.facets[3].facetValues[0].value, 'Schriftsteller');
    // The item search: Goethe's portraits, their media type, Goethe beside them.
    const [itemsBody, itemsStatus] = items!.stdout.split(/\n(?=\d{3}$)/);
    assert.equal(itemsStatus, '200');
    const hits = JSON.parse(itemsBody!);
    assert.equal(hits.numberOfResults, 3);
    assert.deepEqual(
      hits.results[0].docs.map((d: { title: string }) => d.title),
      ['Goethe', 'Cornelie Goethe'],
    );
    assert.deepEqual(hits.facets, [{ field: 'type_fct', numberOfFacets: 1, facetValues: [{ count: 3, value: 'mediatype_002' }] }]);
    assert.equal(hits.entities[0].preferredName, 'Johann Wolfgang von Goethe');
  } finally {
    child.kill('SIGTERM');
  }
});
