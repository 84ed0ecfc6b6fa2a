/**
 * The item page's BibTeX entry and media downloads (docs/pages.md "Cite and share"): the entry
 * on the page and at /item/{id}/cite.bib, read back by a real BibTeX parser (the one Better
 * BibTeX for Zotero imports with) and compared with what the record says; the media offered for
 * download only where the licence's group allows reuse.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, type Creator, type Entry } from '@retorquere/bibtex-parser';
import type { LightMyRequestResponse } from 'fastify';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { jpegImage } from '../helpers/images.js';
import { CORTEX_DIR, GOETHE_ID } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';
import { writeEdmMediaRecords } from './edmMediaRecords.js';
import { writePagePackages, type PagePackage } from './pagePackages.js';

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const ALLOWED = 'http://127.0.0.1:8123';
/** Every character BibTeX or LaTeX reads as markup, and some that need none. */
const AWKWARD = 'Über 100 % & #1 {x} a_b $5 \\ ~ ^ <i>x</i> | "q" — Straße';

const PACKAGES: PagePackage[] = [
  {
    id: 'MAKERS',
    title: 'Vom Ursprung',
    fields: [
      ['Urheber', 'Goethe, Johann Wolfgang von'],
      ['Urheber', 'Lazarus Gottlieb Sichling (1812-1863)'],
      ['Urheber', 'Marie von Ebner-Eschenbach (1830-1916)'],
      ['Datierung', '1790-05-01'],
    ],
  },
  {
    id: 'CORPORATE',
    title: 'Tafelklavier',
    fields: [
      ['Urheber', 'John Broadwood & Sons'],
      ['Urheber', 'Frankfurter Goethe-Haus'],
      ['Datierung', '1800-1810'],
    ],
  },
  {
    id: 'AWKWARD_1',
    title: AWKWARD,
    fields: [
      ['Autor', 'Müller_{x}, Hans'],
      ['Datierung', '1949-01-01-1949-12-31'],
    ],
  },
];

/** The BibTeX entry's fields as the parser gives them. */
function parsed(bib: string): Entry {
  const library = parse(bib, { english: false });
  assert.deepEqual(library.errors, []);
  assert.equal(library.entries.length, 1);
  return library.entries[0]!;
}

const today = () => new Date().toISOString().slice(0, 10);
const html = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

function mediaFolder(): string {
  const dir = tempDir('cite-media');
  const put = (path: string, bytes: Buffer) => {
    mkdirSync(join(dir, dirname(path)), { recursive: true });
    writeFileSync(join(dir, path), bytes);
  };
  put(`${GOETHE_ID}/full/1.jpg`, Buffer.alloc(12_345, 0xff));
  put(`${GOETHE_ID}/list/1.jpg`, jpegImage(64, 48));
  return dir;
}

for (const backend of BACKENDS) {
  describe(`cite and share (${backend.name})`, () => {
    let t: TestApp;
    let get: (url: string, headers?: Record<string, string>) => Promise<LightMyRequestResponse>;
    before(async () => {
      t = await startTestApp(backend, {
        load: [
          writePagePackages(PACKAGES),
          `${CORTEX_DIR}goethe.json`,
          writeEdmMediaRecords([
            {
              id: 'RESTRICTED',
              title: 'Geschützt',
              media: [`${ALLOWED}/img/r.jpg`],
              types: ['image/jpeg'],
              license: 'http://rightsstatements.org/vocab/InC/1.0/',
            },
          ]),
        ],
        flags: { media: { path: mediaFolder(), origins: [ALLOWED] } },
      });
      get = (url, headers = {}) => t.app.inject({ url, headers: { ...BROWSER, ...headers } });
    });
    after(() => t.close());

    test('the BibTeX entry reads back, by a real parser, as what the record says', async () => {
      const expected: Record<string, { author: Creator[] } & Record<string, string | Creator[]>> = {
        // A real package: one maker with life dates (the DDB's form of a person), a range of years.
        [GOETHE_ID]: {
          author: [{ firstName: 'Lazarus Gottlieb', lastName: 'Sichling' }],
          title: 'Goethe',
          year: '1864–1877',
          date: '1864/1877',
          howpublished: 'Frankfurter Goethe-Haus. Freies Deutsches Hochstift',
          url: `http://localhost:80/item/${GOETHE_ID}`,
          urldate: today(),
          note: 'CC BY-NC-SA 4.0',
        },
        MAKERS: {
          author: [
            { firstName: 'Johann Wolfgang von', lastName: 'Goethe' },
            { firstName: 'Lazarus Gottlieb', lastName: 'Sichling' },
            { firstName: 'Marie', prefix: 'von', lastName: 'Ebner-Eschenbach' },
          ],
          title: 'Vom Ursprung',
          year: '1790',
          date: '1790-05-01',
          howpublished: 'Archiv <i>Test</i> ]]>',
          url: 'http://localhost:80/item/MAKERS',
          urldate: today(),
          note: 'Public Domain Mark 1.0',
        },
        // Corporate names whole: no style turns them into initials.
        CORPORATE: {
          author: [{ name: 'John Broadwood & Sons' }, { name: 'Frankfurter Goethe-Haus' }],
          title: 'Tafelklavier',
          year: '1800–1810',
          date: '1800/1810',
          howpublished: 'Archiv <i>Test</i> ]]>',
          url: 'http://localhost:80/item/CORPORATE',
          urldate: today(),
          note: 'Public Domain Mark 1.0',
        },
        AWKWARD_1: {
          author: [{ firstName: 'Hans', lastName: 'Müller_{x}' }],
          title: AWKWARD,
          year: '1949',
          date: '1949',
          howpublished: 'Archiv <i>Test</i> ]]>',
          url: 'http://localhost:80/item/AWKWARD_1',
          urldate: today(),
          note: 'Public Domain Mark 1.0',
        },
      };
      for (const [id, fields] of Object.entries(expected)) {
        const res = await t.app.inject({ url: `/item/${id}/cite.bib` });
        assert.equal(res.statusCode, 200, id);
        assert.equal(res.headers['content-type'], 'application/x-bibtex; charset=utf-8');
        assert.equal(res.headers['content-disposition'], `attachment; filename="${id}.bib"`);
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        const entry = parsed(res.body);
        assert.equal(entry.type, 'misc', id);
        assert.equal(entry.key, id);
        assert.deepEqual(entry.fields, fields, id);
        // The page shows the same entry, as text.
        const page = (await get(`/item/${id}`)).body;
        assert.ok(page.includes(`<pre class="bibtex">${html(res.body)}</pre>`), `${id}: ${page}`);
      }
    });

    test('the download of an entry, byte for byte; unknown and blocked items as the other downloads', async () => {
      const res = await t.app.inject({ url: '/item/AWKWARD_1/cite.bib' });
      assert.equal(
        res.body,
        [
          '@misc{AWKWARD_1,',
          '  author = {Müller\\_\\textbraceleft{}x\\textbraceright{}, Hans},',
          '  title = {{Über 100 \\% \\& \\#1 \\textbraceleft{}x\\textbraceright{} a\\_b \\$5 \\textbackslash{} \\textasciitilde{} \\textasciicircum{} \\textless{}i\\textgreater{}x\\textless{}/i\\textgreater{} \\textbar{} "q" — Straße}},',
          '  year = {1949},',
          '  date = {1949},',
          '  howpublished = {Archiv \\textless{}i\\textgreater{}Test\\textless{}/i\\textgreater{} ]]\\textgreater{}},',
          '  url = {http://localhost:80/item/AWKWARD_1},',
          `  urldate = {${today()}},`,
          '  note = {Public Domain Mark 1.0}',
          '}',
          '',
        ].join('\n'),
      );
      const unknown = await get('/item/NOSUCHITEM/cite.bib');
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.headers['content-type'], 'text/html; charset=utf-8');
      assert.ok(unknown.body.includes('<p class="problem">Item &#39;NOSUCHITEM&#39; not found.</p>'), unknown.body);
      assert.equal((await get('/item/no..id/cite.bib')).statusCode, 400);
      assert.equal(await t.store.blockItem('CORPORATE', 'withdrawn'), true);
      try {
        const blocked = await get('/item/CORPORATE/cite.bib');
        const record = await get('/item/CORPORATE/record.json');
        assert.equal(blocked.statusCode, 403);
        assert.equal(blocked.statusCode, record.statusCode);
        assert.equal(blocked.headers['content-type'], 'text/html; charset=utf-8');
        assert.ok(
          blocked.body.includes('<p class="problem">Item &#39;CORPORATE&#39; is not available through this interface: withdrawn</p>'),
          blocked.body,
        );
      } finally {
        assert.equal(await t.store.unblockItem('CORPORATE'), true);
      }
    });

    test('media to download where the licence allows reuse: the largest rendition, with type and size; else a note', async () => {
      const downloads = (page: string) => {
        const from = page.indexOf('<h3>Medien herunterladen</h3>');
        return from < 0 ? '' : page.slice(from, page.indexOf('</section>', from)).trimEnd();
      };
      // CC BY-NC-SA 4.0, rights_002: reusable with conditions. The folder holds the full and the list rendition: the full one.
      assert.equal(
        downloads((await get(`/item/${GOETHE_ID}`)).body),
        [
          '<h3>Medien herunterladen</h3>',
          '  <ul class="downloads">',
          `    <li><a href="/binary/${GOETHE_ID}/full/1.jpg" download>Goethe</a> <span class="type">(JPEG, 12,3 kB)</span></li>`,
          '  </ul>',
        ].join('\n'),
      );
      assert.equal(
        downloads((await get(`/item/${GOETHE_ID}?lang=en`)).body.replace('Download the media', 'Medien herunterladen')),
        [
          '<h3>Medien herunterladen</h3>',
          '  <ul class="downloads">',
          `    <li><a href="/binary/${GOETHE_ID}/full/1.jpg" download>Goethe</a> <span class="type">(JPEG, 12.3 kB)</span></li>`,
          '  </ul>',
        ].join('\n'),
      );
      // In copyright (rights_003): shown, but not offered.
      const restricted = (await get('/item/RESTRICTED')).body;
      assert.ok(restricted.includes(`<img src="${ALLOWED}/img/r.jpg"`), 'shown from its origin');
      assert.equal(
        downloads(restricted),
        '<h3>Medien herunterladen</h3>\n  <p class="note">Die Medien dürfen nur mit Genehmigung der Rechteinhaber nachgenutzt werden.</p>',
      );
      assert.ok(
        (await get('/item/RESTRICTED?lang=en')).body.includes(
          '<h3>Download the media</h3>\n  <p class="note">The media may be reused only with the permission of the rights holders.</p>',
        ),
        'the note in English',
      );
      // Nothing the pages can show: nothing to download, and no note.
      assert.equal(downloads((await get('/item/MAKERS')).body), '');
    });
  });
}
