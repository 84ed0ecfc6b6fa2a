/**
 * A real client: the `ddb` command of
 * @maschinenlesbar.org/deutsche-digitale-bibliothek-cli, a client of the
 * newer generation of the DDB API, pointed at our real server in public mode
 * (auth.anonymousRead) with `--base-url http://127.0.0.1:PORT/2`, unchanged.
 *
 * The client is run as its own process, as a user runs it; it sends no key
 * and `Accept: application/json, application/xml;q=0.9, text/plain;q=0.8,
 * *∕*;q=0.5` for item parts (dist/src/client/client.js). Each answer it
 * writes (-o, which keeps the bytes) must be exactly our server's body for
 * the same request: JSON as the client re-serialises it (--compact), XML as
 * it came, each with the newline the client adds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { writePackages } from '../helpers/packages.js';
import { CHAPTER_ID, CORTEX_DIR, GOETHE_ID, OTHER_CORTEX_ID } from '../helpers/paths.js';
import { VERSION } from '../../src/version.js';

const PACKAGE = '@maschinenlesbar.org/deutsche-digitale-bibliothek-cli';
/** The package's `ddb` bin (its package.json "bin"; "exports" does not expose package.json). */
const DDB = (() => {
  const manifest = fileURLToPath(new URL(`../../node_modules/${PACKAGE}/package.json`, import.meta.url));
  const bin = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: { ddb: string } }).bin.ddb;
  return join(dirname(manifest), bin);
})();

/** What the client sends for item parts (client.js, DdbClient.item). */
const ITEM_ACCEPT = 'application/json, application/xml;q=0.9, text/plain;q=0.8, */*;q=0.5';

/** The path under the base URL of each --part (client.js PART_SUFFIX). */
const PARTS: Record<string, string> = {
  view: '/view',
  aip: '',
  edm: '/edm',
  binaries: '/binaries',
  children: '/children',
  parents: '/parents',
  source: '/source',
  'source-record': '/source/record',
  iiif: '/iiif',
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function ddb(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [DDB, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

/** A small hierarchy (the fixtures' items are leaves), with ids of the 32 characters the client insists on. */
const ROOT_ID = 'ROOTROOTROOTROOTROOTROOTROOTROOT';
const VOLUMES = ['VOLAVOLAVOLAVOLAVOLAVOLAVOLAVOLA', 'VOLBVOLBVOLBVOLBVOLBVOLBVOLBVOLB'];
const TREE = [
  { id: ROOT_ID, title: 'Zeitschrift & Co', htype: 'htype_021', aggregationEntity: true },
  { id: VOLUMES[1]!, title: 'Band 2', htype: 'htype_007', position: '2', parent: ROOT_ID },
  { id: VOLUMES[0]!, title: 'Band 1', htype: 'htype_007', position: '1', parent: ROOT_ID },
];

async function withServer(run: (t: TestApp, base: string, out: string) => Promise<void>) {
  const tree = writePackages(TREE);
  const t = await startTestApp(BACKENDS[0]!, { load: [CORTEX_DIR, tree], flags: { auth: { anonymousRead: true } } });
  const out = mkdtempSync(join(tmpdir(), 'heritage-api-ddb-'));
  try {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as { port: number };
    await run(t, `http://127.0.0.1:${port}/2`, out);
  } finally {
    await t.close();
    rmSync(out, { recursive: true, force: true });
    rmSync(tree, { recursive: true, force: true });
  }
}

/** Our server's answer to the request the client makes (the Host too: the IIIF manifest's ids are built from it). */
async function ours(t: TestApp, path: string, accept: string) {
  const { port } = t.app.server.address() as { port: number };
  const res = await t.app.inject({ url: path, headers: { accept, host: `127.0.0.1:${port}` } });
  return { status: res.statusCode, type: String(res.headers['content-type']), body: res.body };
}

test('ddb item ID --part …: every part, through /2 without a key, is our answer byte for byte', { timeout: 300_000 }, () =>
  withServer(async (t, base, out) => {
    let n = 0;
    for (const id of [CHAPTER_ID, OTHER_CORTEX_ID, GOETHE_ID]) {
      for (const [part, suffix] of Object.entries(PARTS)) {
        const expected = await ours(t, `/2/items/${id}${suffix}`, ITEM_ACCEPT);
        assert.equal(expected.status, 200, `${id} ${part}: ${expected.body.slice(0, 200)}`);
        const file = join(out, `${n++}.out`);
        const run = await ddb(['--base-url', base, '--compact', '-o', file, 'item', id, '--part', part]);
        assert.equal(run.code, 0, `${id} ${part}: ${run.stderr}`);
        const written = readFileSync(file, 'utf8');
        // The client parses JSON answers and writes them again, compactly; text as it came.
        if (/\bjson\b/i.test(expected.type)) {
          // Our JSON is already compact: the client's copy is our body itself.
          assert.equal(written, `${expected.body}\n`, `${id} ${part}`);
        } else {
          assert.match(expected.type, /^application\/xml/, `${id} ${part}`);
          assert.equal(written, expected.body.endsWith('\n') ? expected.body : `${expected.body}\n`, `${id} ${part}`);
        }
      }
    }
  }),
);

test('ddb item --part children, parents, and paging: the hierarchy as we answer it', () =>
  withServer(async (t, base) => {
    const cases: Array<[string[], string]> = [
      [['item', ROOT_ID, '--part', 'children'], `/2/items/${ROOT_ID}/children`],
      [['item', ROOT_ID, '--part', 'children', '--rows', '1', '--offset', '1'], `/2/items/${ROOT_ID}/children?rows=1&offset=1`],
      [['item', VOLUMES[1]!, '--part', 'parents'], `/2/items/${VOLUMES[1]}/parents`],
    ];
    for (const [args, path] of cases) {
      const expected = await ours(t, path, ITEM_ACCEPT);
      assert.equal(expected.status, 200, path);
      const run = await ddb(['--base-url', base, '--compact', ...args]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, `${expected.body}\n`, path);
    }
    // The page asked for is the second volume: the client's paging reached us.
    const page = JSON.parse((await ours(t, cases[1]![1], ITEM_ACCEPT)).body);
    assert.deepEqual([page.numberOfResults, page.hierarchy.map((n: { id: string }) => n.id)], [2, [VOLUMES[1]]]);
  }));

test("ddb item: a part the package lacks, and an unknown item, are the client's 404 with our message", () =>
  withServer(async (t, base) => {
    for (const [id, part, suffix] of [
      [ROOT_ID, 'iiif', '/iiif'],
      [ROOT_ID, 'binaries', '/binaries'],
      ['NOSUCHITEMNOSUCHITEMNOSUCHITEM12', 'view', '/view'],
    ] as const) {
      const expected = await ours(t, `/2/items/${id}${suffix}`, ITEM_ACCEPT);
      assert.equal(expected.status, 404, `${id} ${part}`);
      const run = await ddb(['--base-url', base, 'item', id, '--part', part]);
      assert.equal(run.code, 4, run.stderr);
      assert.ok(run.stderr.includes(JSON.parse(expected.body).message), run.stderr);
    }
  }));

test('ddb version: our version, through /2 without a key', () =>
  withServer(async (t, base, out) => {
    const run = await ddb(['--base-url', base, 'version']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `${VERSION}\n`);
    const file = join(out, 'version.out');
    assert.equal((await ddb(['--base-url', base, '-o', file, 'version'])).code, 0);
    assert.equal(readFileSync(file, 'utf8'), `${(await ours(t, '/2/version', '*/*')).body}\n`);
  }));

/** Our Solr answer with the measured QTime set to 0 (the client's run and ours each measure their own). */
function withoutQTime(text: string): unknown {
  const body = JSON.parse(text);
  assert.ok(Number.isInteger(body.responseHeader.QTime));
  body.responseHeader.QTime = 0;
  return body;
}

test('ddb search with a filter, a facet, paging, fields and a sort: our Solr-native select, unchanged', { timeout: 300_000 }, () =>
  withServer(async (t, base) => {
    const runs: Array<[string[], Array<[string, string]>]> = [
      [
        [
          'search',
          'goethe',
          '--filter',
          'type_fct:mediatype_002',
          '--facet',
          'place_fct',
          '--facet-limit',
          '3',
          '--rows',
          '2',
          '--offset',
          '1',
          '--fields',
          'id,title',
          '--sort',
          'id asc',
        ],
        [
          ['q', 'goethe'],
          ['wt', 'json'],
          ['rows', '2'],
          ['start', '1'],
          ['sort', 'id asc'],
          ['fl', 'id,title'],
          ['fq', 'type_fct:mediatype_002'],
          ['facet', 'true'],
          ['facet.field', 'place_fct'],
          ['facet.limit', '3'],
        ],
      ],
      [
        [
          'search',
          '*:*',
          '--filter',
          'has_media_fct:true',
          '--filter',
          'place_fct:"Leipzig"',
          '--facet',
          'type_fct',
          '--facet',
          'sector_fct',
        ],
        [
          ['q', '*:*'],
          ['wt', 'json'],
          ['rows', '10'],
          ['fq', 'has_media_fct:true'],
          ['fq', 'place_fct:"Leipzig"'],
          ['facet', 'true'],
          ['facet.field', 'type_fct'],
          ['facet.field', 'sector_fct'],
        ],
      ],
    ];
    for (const [args, params] of runs) {
      const path = `/2/search/index/search/select?${new URLSearchParams(params).toString()}`;
      const expected = await ours(t, path, 'application/json');
      assert.equal(expected.status, 200, expected.body);
      const run = await ddb(['--base-url', base, '--compact', ...args]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(withoutQTime(run.stdout), withoutQTime(expected.body), args.join(' '));
      const body = JSON.parse(expected.body);
      assert.ok(body.response.numFound > 0, args.join(' '));
      if (body.response.numFound > body.response.start + body.response.docs.length) assert.match(run.stderr, /documents match/);
    }
    // The first run's page is the second and third hit by id, with the fields asked.
    const page = JSON.parse(
      (await ours(t, `/2/search/index/search/select?${new URLSearchParams(runs[0]![1]).toString()}`, 'application/json')).body,
    );
    assert.deepEqual(
      page.response.docs.map((d: object) => Object.keys(d)),
      page.response.docs.map(() => ['id', 'title']),
    );
    assert.deepEqual(Object.keys(page.facet_counts.facet_fields), ['place_fct']);
  }),
);

test("ddb search: a query error is the client's 400", () =>
  withServer(async (_t, base) => {
    const run = await ddb(['--base-url', base, 'search', 'title:']);
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /400/);
  }));

test(
  'ddb item ID --lang en: accepted on every part the client sends it with; the view answers its labels in English',
  { timeout: 300_000 },
  () =>
    withServer(async (t, base, out) => {
      let n = 0;
      // The parts the client sends `lang` with (client.js LANG_PARTS).
      for (const part of ['view', 'aip', 'edm', 'binaries', 'source']) {
        for (const lang of ['en', 'de']) {
          const expected = await ours(t, `/2/items/${CHAPTER_ID}${PARTS[part]}?lang=${lang}`, ITEM_ACCEPT);
          assert.equal(expected.status, 200, `${part} ${lang}: ${expected.body.slice(0, 200)}`);
          const file = join(out, `lang-${n++}.out`);
          const run = await ddb(['--base-url', base, '--compact', '-o', file, 'item', CHAPTER_ID, '--part', part, '--lang', lang]);
          assert.equal(run.code, 0, `${part} ${lang}: ${run.stderr}`);
          const written = readFileSync(file, 'utf8');
          assert.equal(written, expected.body.endsWith('\n') ? expected.body : `${expected.body}\n`, `${part} ${lang}`);
          // Parts without labels are the same in every language.
          if (part !== 'view') assert.equal(expected.body, (await ours(t, `/2/items/${CHAPTER_ID}${PARTS[part]}`, ITEM_ACCEPT)).body, part);
        }
      }
      // The default part is the view: its display and index labels in English, values and other names as stored.
      const run = await ddb(['--base-url', base, '--compact', 'item', CHAPTER_ID, '--lang', 'en']);
      assert.equal(run.code, 0, run.stderr);
      const view = JSON.parse(run.stdout) as {
        item: { fields: Array<{ '@usage': string; field: Array<{ '@id': string; name: string; value: string }> }> };
      };
      const labels = view.item.fields.map((group) => [group['@usage'], group.field.map((f) => `${f['@id']}=${f.name}`)]);
      assert.deepEqual(labels, [
        ['display', ['flex_bibl_003=Document type', 'flex_bibl_004=Published in', 'flex_bibl_014=Location', 'stat_016=Funding']],
        [
          'index',
          [
            'title=Title',
            'description=Description',
            'license=License',
            'license_group=License status',
            'grid_preview=grid_preview',
            'digitalisat=digitalisat',
          ],
        ],
      ]);
      const german = JSON.parse((await ours(t, `/2/items/${CHAPTER_ID}/view`, ITEM_ACCEPT)).body) as typeof view;
      assert.deepEqual(
        german.item.fields[0]!.field.map((f) => f.name),
        ['Dokumenttyp', 'Erschienen in', 'Standort', 'Förderung'],
      );
      // The same values in both languages.
      assert.deepEqual(
        view.item.fields.map((g) => g.field.map((f) => f.value)),
        german.item.fields.map((g) => g.field.map((f) => f.value)),
      );
      // A lang that is not a language tag is a 400 that says what to send.
      const bad = await ours(t, `/2/items/${CHAPTER_ID}/view?lang=${encodeURIComponent('<b>')}`, ITEM_ACCEPT);
      assert.equal(bad.status, 400);
      assert.equal(
        bad.body,
        JSON.stringify({
          status: 400,
          name: 'BadRequestException',
          message:
            'Bad request: querystring/lang must match pattern "^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$". See /openapi.json for the parameters of this operation.',
        }),
      );
    }),
);
