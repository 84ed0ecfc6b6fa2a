/**
 * The item page's parts over HTTP (docs/pages.md "Item page"): media of records built from EDM
 * at their origin and the CSP that allows exactly the configured origins, names and subjects as
 * links, citation, permalink and downloads of the record, the viewer's manifest and files,
 * sound and film in the browser's own players, the favicon. In Chromium: test/browser/itemPage.browser.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { Parser } from 'n3';
import { loadConfig } from '../../src/config.js';
import { UsageError } from '../../src/errors.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { iiifProblems } from '../helpers/iiifSchema.js';
import { jpegImage } from '../helpers/images.js';
import { FIXTURES } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';
import { writeEdmMediaRecords, type EdmMediaRecord } from './edmMediaRecords.js';

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
/** The stand-in origin the operator allows; nothing needs to answer there for these tests (the browser test has a server). */
const ALLOWED = 'http://127.0.0.1:8123';
const OTHER = 'http://images.example.org';

export const RECORDS: EdmMediaRecord[] = [
  {
    id: 'EDMORIGIN01',
    title: 'Vom Ursprung',
    media: [`${ALLOWED}/img/a.jpg`, `${ALLOWED}/img/b.jpg`, `${ALLOWED}/doc/c.pdf`],
    types: ['image/jpeg', 'image/jpeg', 'application/pdf'],
    creator: { gnd: '118540238', name: 'Goethe, Johann Wolfgang von' },
    subject: 'Reise',
    date: '1790-05-01',
  },
  {
    id: 'EDMELSEWHERE',
    title: 'Anderswo',
    media: [`${OTHER}/x.jpg`],
    types: ['image/jpeg'],
    creator: { gnd: '1234567', name: 'Niemand, Nobody (1800-1870)' },
  },
  { id: 'EDMLOCAL', title: 'Hier', media: [`${ALLOWED}/img/local.jpg`], types: ['image/jpeg'] },
  { id: 'EDMSOUND', title: 'Klang', media: [`${ALLOWED}/av/a.wav`, `${ALLOWED}/av/b.mp4`], types: ['audio/x-wav', 'video/mp4'] },
];

function section(html: string, start: string): string {
  const from = html.indexOf(start);
  assert.ok(from >= 0, start);
  return html.slice(from, html.indexOf('</section>', from) + '</section>'.length);
}

function mediaFolder(): string {
  const dir = tempDir('item-media');
  const path = join(dir, 'EDMLOCAL/list/1.jpg');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, jpegImage(80, 60));
  return dir;
}

for (const backend of BACKENDS) {
  describe(`item page (${backend.name})`, () => {
    let t: TestApp;
    let get: (url: string, headers?: Record<string, string>) => Promise<LightMyRequestResponse>;
    before(async () => {
      t = await startTestApp(backend, {
        load: [writeEdmMediaRecords(RECORDS)],
        loadEntities: [`${FIXTURES}persons`],
        // media.baseUrl as the demo sets it: records built from EDM are not there under our paths, and are never shown from it.
        flags: { media: { path: mediaFolder(), origins: [ALLOWED], baseUrl: 'http://127.0.0.1:9/binary' } },
      });
      get = (url, headers = {}) => t.app.inject({ url, headers: { ...BROWSER, ...headers } });
    });
    after(() => t.close());

    test('media of a record built from EDM: the folder first, else at their origin when allowed, else a placeholder linking there', async () => {
      const res = await get('/item/EDMORIGIN01');
      assert.equal(res.statusCode, 200);
      assert.equal(
        res.headers['content-security-policy'],
        `default-src 'none'; img-src 'self' http://127.0.0.1:9 ${ALLOWED}; media-src 'self' http://127.0.0.1:9 ${ALLOWED}; style-src 'self' 'sha256-9xTiqzfwFaL2SGb1rmr8gysEwVVjIvqWAgmZgqFqpEE='; script-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
      );
      assert.equal(
        section(res.body, '<section aria-labelledby="media">'),
        [
          '<section aria-labelledby="media">',
          '  <h2 id="media">Medien</h2>',
          '  <ul class="media">',
          `    <li><a class="pic" href="${ALLOWED}/img/a.jpg"><span class="ph" aria-hidden="true">Bild · JPEG</span><img src="${ALLOWED}/img/a.jpg" alt="" loading="lazy"><span class="visually-hidden">Bild öffnen: Vom Ursprung 1</span></a><span class="caption">Vom Ursprung 1</span></li>`,
          `    <li><a class="pic" href="${ALLOWED}/img/b.jpg"><span class="ph" aria-hidden="true">Bild · JPEG</span><img src="${ALLOWED}/img/b.jpg" alt="" loading="lazy"><span class="visually-hidden">Bild öffnen: Vom Ursprung 2</span></a><span class="caption">Vom Ursprung 2</span></li>`,
          '  </ul>',
          '  <ul class="files">',
          `    <li><a href="${ALLOWED}/doc/c.pdf" download>Datei: Vom Ursprung 3</a> <span class="type">(PDF)</span></li>`,
          '  </ul>',
          '</section>',
        ].join('\n'),
      );
      // An origin the operator did not name: no <img> the CSP would block, but the placeholder, linking to the file there.
      const elsewhere = (await get('/item/EDMELSEWHERE')).body;
      assert.ok(
        elsewhere.includes(
          `<li><a class="pic" href="${OTHER}/x.jpg" rel="external noopener"><span class="ph">Bild · JPEG<span class="visually-hidden">: Anderswo 1,</span> <span class="note">beim Datengeber ansehen</span></span></a><span class="caption" aria-hidden="true">Anderswo 1</span></li>`,
        ),
      );
      assert.ok(!elsewhere.includes('<img'));
      assert.ok(!elsewhere.includes('127.0.0.1:9/binary/EDMELSEWHERE'), 'never from media.baseUrl');
      // The folder holds the file: shown from here, not from its origin.
      const local = (await get('/item/EDMLOCAL')).body;
      assert.ok(
        local.includes(
          '<li><a class="pic" href="/binary/EDMLOCAL/list/1.jpg"><span class="ph" aria-hidden="true">Bild · JPEG</span><img src="/binary/EDMLOCAL/list/1.jpg" alt="" loading="lazy">',
        ),
      );
      assert.ok(!local.includes(`${ALLOWED}/img/local.jpg`));
    });

    test('in the results, a record built from EDM shows its thumbnail from the folder or its allowed origin, never from media.baseUrl', async () => {
      const html = (await get('/search?sort=title')).body;
      const thumb = (id: string) => {
        const from = html.indexOf(`<a href="/item/${id}">`);
        assert.ok(from >= 0, id);
        return html.slice(html.indexOf('<span class="thumb">', from), html.indexOf('<span class="text">', from)).trim();
      };
      assert.equal(
        thumb('EDMORIGIN01'),
        `<span class="thumb"><span class="nothumb" aria-hidden="true">I</span><img src="${ALLOWED}/img/a.jpg" alt="" loading="lazy" width="96" height="96"></span>`,
      );
      assert.equal(
        thumb('EDMLOCAL'),
        '<span class="thumb"><span class="nothumb" aria-hidden="true">I</span><img src="/binary/EDMLOCAL/list/1.jpg" alt="" loading="lazy" width="96" height="96"></span>',
      );
      assert.equal(thumb('EDMELSEWHERE'), '<span class="thumb"><span class="nothumb" aria-hidden="true">I</span></span>');
      // A sound's thumbnail path names no picture: the placeholder, not media.baseUrl's file in an <img>.
      assert.ok(thumb('EDMSOUND').startsWith('<span class="thumb"><span class="nothumb" aria-hidden="true">'));
      assert.ok(!thumb('EDMSOUND').includes('<img'));
    });

    test('sound and film play in the browser’s own elements, beside their download link', async () => {
      const html = (await get('/item/EDMSOUND')).body;
      assert.equal(
        section(html, '<section aria-labelledby="media">'),
        [
          '<section aria-labelledby="media">',
          '  <h2 id="media">Medien</h2>',
          '  <ul class="files">',
          `    <li><audio controls preload="none" src="${ALLOWED}/av/a.wav"></audio><a href="${ALLOWED}/av/a.wav" download>Datei: Klang 1</a> <span class="type">(WAV)</span></li>`,
          `    <li><video controls preload="none" src="${ALLOWED}/av/b.mp4"></video><a href="${ALLOWED}/av/b.mp4" download>Datei: Klang 2</a> <span class="type">(MP4)</span></li>`,
          '  </ul>',
          '</section>',
        ].join('\n'),
      );
    });

    test('names link to the person page where the record gives a GND id the store holds, else to a search; subjects to a search', async () => {
      const details = (html: string) => {
        const from = html.indexOf('<dl class="facts">');
        return html.slice(from, html.indexOf('<dt>Institution</dt>', from));
      };
      assert.equal(
        details((await get('/item/EDMORIGIN01')).body),
        [
          '<dl class="facts">',
          '    <dt>Urheber</dt>',
          '    <dd><a href="/person/118540238">Goethe, Johann Wolfgang von</a></dd>',
          '    <dt>Datierung</dt>',
          '    <dd>1. Mai 1790</dd>',
          '    <dt>Thema</dt>',
          '    <dd><a href="/search?q=%22Reise%22">Reise</a></dd>',
          '    ',
        ].join('\n'),
      );
      // A GND id of no person in the store: a search for the name, without its life dates; the language kept.
      assert.ok(
        (await get('/item/EDMELSEWHERE?lang=en')).body.includes(
          '<dt>Creator</dt>\n    <dd><a href="/search?q=%22Niemand%2C+Nobody%22&amp;lang=en">Niemand, Nobody (1800-1870)</a></dd>',
        ),
      );
      // The links lead somewhere: the person page, and a search that finds the item.
      assert.equal((await get('/person/118540238')).statusCode, 200);
      assert.ok((await get('/search?q=%22Reise%22')).body.includes('<a href="/item/EDMORIGIN01">'));
    });

    test('cite and share: a plain and a BibTeX citation with permalink and licence; the record and the media to download, without a key', async () => {
      const html = (await get('/item/EDMORIGIN01')).body;
      const today = new Intl.DateTimeFormat('de-DE', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date());
      assert.equal(
        section(html, '<section class="cite" aria-labelledby="cite">'),
        [
          '<section class="cite" aria-labelledby="cite">',
          '  <h2 id="cite">Zitieren und teilen</h2>',
          '  <h3>Zitierhinweis</h3>',
          `  <p class="citation">Goethe, Johann Wolfgang von: Vom Ursprung, 1. Mai 1790. Testarchiv. http://localhost:80/item/EDMORIGIN01 (CC BY 4.0), abgerufen am ${today}.</p>`,
          '  <h3>Zitierhinweis als BibTeX</h3>',
          '  <pre class="bibtex">@misc{EDMORIGIN01,',
          '  author = {Goethe, Johann Wolfgang von},',
          '  title = {{Vom Ursprung}},',
          '  year = {1790},',
          '  date = {1790-05-01},',
          '  howpublished = {Testarchiv},',
          '  url = {http://localhost:80/item/EDMORIGIN01},',
          `  urldate = {${new Date().toISOString().slice(0, 10)}},`,
          '  note = {CC BY 4.0}',
          '}',
          '</pre>',
          '  <p><a href="/item/EDMORIGIN01/cite.bib" type="application/x-bibtex" download>BibTeX-Datei herunterladen (.bib)</a></p>',
          '  <h3>Permalink</h3>',
          '  <p class="permalink"><a href="http://localhost:80/item/EDMORIGIN01">http://localhost:80/item/EDMORIGIN01</a></p>',
          '  <h3>Datensatz herunterladen</h3>',
          '  <ul class="formats">',
          '    <li><a href="/item/EDMORIGIN01/record.json" type="application/json" download>Paket · JSON</a></li>',
          '    <li><a href="/item/EDMORIGIN01/record.xml" type="application/xml" download>Paket · XML</a></li>',
          '    <li><a href="/item/EDMORIGIN01/edm.rdf" type="application/rdf+xml" download>EDM · RDF/XML</a></li>',
          '    <li><a href="/item/EDMORIGIN01/edm.ttl" type="text/turtle" download>EDM · Turtle</a></li>',
          '    <li><a href="/item/EDMORIGIN01/edm.jsonld" type="application/ld+json" download>EDM · JSON-LD</a></li>',
          '    <li><a href="/item/EDMORIGIN01/edm.nt" type="application/n-triples" download>EDM · N-Triples</a></li>',
          '  </ul>',
          // CC BY 4.0: reusable with conditions (docs/search.md "Licences"): each picture and file, where the page shows it from.
          '  <h3>Medien herunterladen</h3>',
          '  <ul class="downloads">',
          `    <li><a href="${ALLOWED}/img/a.jpg" download>Vom Ursprung 1</a> <span class="type">(JPEG)</span></li>`,
          `    <li><a href="${ALLOWED}/img/b.jpg" download>Vom Ursprung 2</a> <span class="type">(JPEG)</span></li>`,
          `    <li><a href="${ALLOWED}/doc/c.pdf" download>Vom Ursprung 3</a> <span class="type">(PDF)</span></li>`,
          '  </ul>',
          '</section>',
        ].join('\n'),
      );
      // Each download is the API's answer for that format (which needs the key), as an attachment.
      const api: Array<[string, string, string]> = [
        ['record.json', '/items/EDMORIGIN01', 'application/json'],
        ['record.xml', '/items/EDMORIGIN01', 'application/xml'],
        ['edm.rdf', '/items/EDMORIGIN01/edm', 'application/rdf+xml'],
        ['edm.ttl', '/items/EDMORIGIN01/edm', 'text/turtle'],
        ['edm.jsonld', '/items/EDMORIGIN01/edm', 'application/ld+json'],
        ['edm.nt', '/items/EDMORIGIN01/edm', 'application/n-triples'],
      ];
      for (const [file, path, type] of api) {
        const download = await t.app.inject({ url: `/item/EDMORIGIN01/${file}` });
        assert.equal(download.statusCode, 200, file);
        assert.equal(download.headers['content-disposition'], `attachment; filename="EDMORIGIN01-${file}"`);
        assert.equal(String(download.headers['content-type']).split(';')[0], type, file);
        const reference = await t.app.inject({ url: path, headers: { accept: type, authorization: t.json.authorization! } });
        assert.equal(reference.statusCode, 200, path);
        assert.equal(download.body, reference.body, file);
      }
      // And it reads: the Turtle parses to the record's title.
      const turtle = (await t.app.inject({ url: '/item/EDMORIGIN01/edm.ttl' })).body;
      const titles = new Parser().parse(turtle).filter((q) => q.predicate.value === 'http://purl.org/dc/elements/1.1/title');
      assert.deepEqual(
        titles.map((q) => q.object.value),
        ['Vom Ursprung'],
      );
      assert.equal((await t.app.inject({ url: '/item/NOSUCHITEM/record.json' })).statusCode, 404);
      assert.equal((await t.app.inject({ url: '/item/EDMORIGIN01/record.json' })).headers['x-content-type-options'], 'nosniff');
    });

    test('the viewer: our manifest without a key, painting what the page shows; OpenSeadragon and our script from our origin', async () => {
      const html = (await get('/item/EDMLOCAL')).body;
      // Our script alone: it loads OpenSeadragon when a picture is opened (docs/pages.md "Viewer").
      const scripts = html.indexOf('<script src="/assets/viewer.js" defer></script>\n');
      assert.ok(scripts > 0 && scripts < html.indexOf('</head>'), 'the script in the head');
      assert.ok(!html.includes('<script src="/assets/openseadragon.min.js"'), 'OpenSeadragon not before it is needed');
      assert.ok(
        html.includes(
          '<section class="viewer" aria-labelledby="viewer" data-manifest="/item/EDMLOCAL/iiif" hidden>\n  <h2 id="viewer">Betrachter</h2>\n  <div class="viewer-area" role="application" aria-label="Betrachter: Hier"></div>',
        ),
      );
      // Pictures shown from their origin are painted from there in the viewer's manifest; the API's keeps our paths.
      const origin = (await get('/item/EDMORIGIN01')).body;
      assert.ok(origin.includes('data-manifest="/item/EDMORIGIN01/iiif" hidden>'));
      const painted = JSON.parse((await t.app.inject({ url: '/item/EDMORIGIN01/iiif' })).body) as {
        items: Array<{ items: Array<{ items: Array<{ body: { id: string } }> }> }>;
      };
      assert.deepEqual(iiifProblems(painted), []);
      assert.deepEqual(
        painted.items.map((c) => c.items[0]!.items[0]!.body.id),
        [`${ALLOWED}/img/a.jpg`, `${ALLOWED}/img/b.jpg`, 'http://localhost:80/binary/EDMORIGIN01/list/3.pdf'],
      );
      const keyed = JSON.parse((await t.app.inject({ url: '/items/EDMORIGIN01/iiif', headers: t.json })).body) as typeof painted;
      assert.equal(keyed.items[0]!.items[0]!.items[0]!.body.id, 'http://localhost:80/binary/EDMORIGIN01/list/1.jpg');
      // An item whose pictures cannot be shown has no viewer.
      assert.ok(!(await get('/item/EDMELSEWHERE')).body.includes('<script src='));
      const manifest = await t.app.inject({ url: '/item/EDMLOCAL/iiif' });
      assert.equal(manifest.statusCode, 200);
      assert.equal(manifest.headers['content-type'], 'application/json; charset=utf-8');
      const body = JSON.parse(manifest.body) as { id: string; items: Array<{ items: Array<{ items: Array<{ body: { id: string } }> }> }> };
      assert.deepEqual(iiifProblems(body), []);
      assert.equal(body.id, 'http://localhost:80/item/EDMLOCAL/iiif');
      assert.equal(body.items[0]!.items[0]!.items[0]!.body.id, 'http://localhost:80/binary/EDMLOCAL/list/1.jpg');
      assert.equal((await t.app.inject({ url: '/items/EDMLOCAL/iiif' })).statusCode, 401, "the API's manifest stays keyed");
      assert.equal((await t.app.inject({ url: '/item/EDMSOUND/iiif' })).statusCode, 200);
      const script = await t.app.inject({ url: '/assets/openseadragon.min.js' });
      assert.equal(script.statusCode, 200);
      assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
      const npm = dirname(createRequire(import.meta.url).resolve('openseadragon'));
      assert.equal(script.body, readFileSync(join(npm, 'openseadragon.min.js'), 'utf8'));
      const button = await t.app.inject({ url: '/assets/openseadragon/images/zoomin_rest.png' });
      assert.equal(button.statusCode, 200);
      assert.deepEqual(button.rawPayload, readFileSync(join(npm, 'images', 'zoomin_rest.png')));
      const viewer = await t.app.inject({ url: '/assets/viewer.js' });
      assert.equal(viewer.statusCode, 200);
      assert.match(viewer.body, /OpenSeadragon\(/);
    });

    test('the favicon is served, at its link and where browsers ask without one', async () => {
      assert.ok((await get('/')).body.includes('<link rel="icon" href="/favicon.svg" type="image/svg+xml">'));
      for (const path of ['/favicon.svg', '/favicon.ico']) {
        const icon = await t.app.inject({ url: path });
        assert.equal(icon.statusCode, 200, path);
        assert.equal(icon.headers['content-type'], 'image/svg+xml');
        assert.match(icon.body, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      }
    });
  });
}

describe('media.origins', () => {
  test('takes origins only; anything else is refused at start, saying what to write', () => {
    assert.deepEqual(loadConfig({ flags: { media: { origins: ['https://images.example.org', 'http://127.0.0.1:8080'] } } }).media.origins, [
      'https://images.example.org',
      'http://127.0.0.1:8080',
    ]);
    assert.deepEqual(loadConfig({ env: { HERITAGE_API_MEDIA_ORIGINS: 'https://a.example, https://b.example' } }).media.origins, [
      'https://a.example',
      'https://b.example',
    ]);
    for (const bad of [
      'https://images.example.org/path',
      'images.example.org',
      "https://x.org; script-src 'unsafe-inline'",
      'ftp://x.org',
    ]) {
      assert.throws(
        () => loadConfig({ flags: { media: { origins: [bad] } } }),
        (e: unknown) =>
          e instanceof UsageError &&
          e.message ===
            `media.origins: each entry must be an origin such as https://images.example.org (scheme, host, optional port; no path), got '${bad}'.`,
      );
    }
  });
});
