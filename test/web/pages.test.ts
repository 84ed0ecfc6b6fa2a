/**
 * The pages for people over HTTP (docs/pages.md): each page on the real server and a real
 * store, its status, type, key content and escaping; the API paths answering as before.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { FIXTURES } from '../helpers/paths.js';
import { HOSTILE, hostileArchive, writePageMedia, writePagePackages } from './pagePackages.js';

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const HTML_TYPE = 'text/html; charset=utf-8';
/** HOSTILE as every page must write it: each of & < > " ' escaped. */
const ESCAPED = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; ]]&gt; &amp; &#39;quoted&#39;';

/** No markup of the records made it into the page as markup. */
function assertEscaped(html: string): void {
  // The one script element a page may have is its JSON-LD, a data block (docs/pages.md), whose text holds no '<'.
  const blocks = [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)];
  assert.ok(blocks.length <= 1, 'at most one JSON-LD block');
  html = html.replace(/<script type="application\/ld\+json">[^<]*<\/script>/, '');
  // Besides, only the viewer's script, a file of our own (docs/pages.md "Viewer").
  html = html.replace('<script src="/assets/viewer.js" defer></script>', '');
  assert.ok(!html.includes('<script'), 'no script element');
  assert.ok(!html.includes('<i>Test</i>') && !html.includes('<b>'), 'no markup of the records');
  assert.ok(!html.includes(']]>'), 'no raw ]]>');
  assert.ok(!/javascript:/i.test(html), 'no javascript: link');
}

for (const backend of BACKENDS) {
  describe(`pages (${backend.name})`, () => {
    let t: TestApp;
    let get: (url: string, headers?: Record<string, string>) => Promise<LightMyRequestResponse>;
    before(async () => {
      t = await startTestApp(backend, {
        load: [writePagePackages(hostileArchive())],
        loadEntities: [`${FIXTURES}persons`],
        flags: { media: { path: writePageMedia() } },
      });
      get = (url, headers = {}) => t.app.inject({ url, headers: { ...BROWSER, ...headers } });
    });
    after(() => t.close());

    test('home: search box, counts, sectors and media types to start from, freshness; German by default', async () => {
      const res = await get('/');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], HTML_TYPE);
      assert.equal(res.headers.vary, 'Accept, Accept-Language, accept-encoding');
      assert.match(String(res.headers['content-security-policy']), /default-src 'none'.*style-src 'self'/);
      const html = res.body;
      assert.match(html, /^<!DOCTYPE html>\n<html lang="de">/);
      assert.ok(html.includes('<form class="searchbox big" role="search" action="/search" method="get">'));
      assert.ok(html.includes('<label for="q">Suche in Objekten und Personen</label>'));
      assert.ok(html.includes('<li><a href="/search"><strong>27</strong> Objekte</a></li>'));
      assert.ok(html.includes('<li><a href="/persons"><strong>1.235</strong> Personen</a></li>'));
      assert.ok(
        html.includes(
          '<li><a href="/search?f=sector_fct%3Asec_01"><span class="label">Archiv</span> <span class="count">27</span></a></li>',
        ),
      );
      assert.ok(
        html.includes(
          '<li><a href="/search?f=type_fct%3Amediatype_003"><span class="label">Text</span> <span class="count">27</span></a></li>',
        ),
      );
      assert.match(html, /<dt>Letzte Ladung: Objekte<\/dt><dd>27 Datensätze, \d+\. \w+ \d{4} um \d\d:\d\d UTC<\/dd>/);
      assert.match(html, /<dt>Letzte Ladung: Personen<\/dt><dd>1\.235 Datensätze, /);
      assert.ok(html.includes('<a href="/?lang=en" hreflang="en" lang="en" title="Switch to English">English</a>'));
      for (const landmark of ['<header class="site">', '<main id="main"', '<footer class="site">', '<a class="skip" href="#main">'])
        assert.ok(html.includes(landmark), landmark);
    });

    test('the language follows ?lang=, then Accept-Language; links keep a chosen language', async () => {
      const en = await get('/', { 'accept-language': 'en-GB,en;q=0.9,de;q=0.5' });
      assert.match(en.body, /<html lang="en">/);
      assert.ok(en.body.includes('<li><a href="/persons"><strong>1,235</strong> Persons</a></li>'));
      const de = await get('/', { 'accept-language': 'fr, de;q=0.8, en;q=0.7' });
      assert.match(de.body, /<html lang="de">/);
      const chosen = await get('/?lang=en', { 'accept-language': 'de' });
      assert.match(chosen.body, /<html lang="en">/);
      assert.ok(chosen.body.includes('<a href="/search?f=sector_fct%3Asec_01&amp;lang=en"><span class="label">Archive</span>'));
      assert.ok(chosen.body.includes('<input type="hidden" name="lang" value="en">'));
      assert.ok(chosen.body.includes('<a href="/?lang=de" hreflang="de" lang="de" title="Auf Deutsch lesen">Deutsch</a>'));
    });

    test('search: hits with thumbnail, title, subtitle and provider, escaped; paging; the URL holds the state', async () => {
      const res = await get('/search?q=File');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], HTML_TYPE);
      const html = res.body;
      assertEscaped(html);
      assert.ok(html.includes(`<h1>Ergebnisse für „File“</h1>`));
      assert.ok(html.includes('<p class="total" role="status">1–20 von 25</p>'));
      assert.equal((html.match(/<li class="hit">/g) ?? []).length, 20);
      assert.ok(html.includes('<a href="/item/FILE01">'));
      assert.ok(html.includes('<img src="/binary/FILE01/list/1.jpg" alt="" loading="lazy" width="96" height="96">'));
      assert.ok(html.includes(`<span class="title">File 01 ${ESCAPED}</span>`));
      assert.ok(html.includes(`<span class="subtitle">Sub File 01 ${ESCAPED}</span>`));
      assert.ok(html.includes('<span class="provider">Archiv &lt;i&gt;Test&lt;/i&gt; ]]&gt;</span>'));
      assert.ok(html.includes('<li><a href="/search?q=File&amp;page=2" rel="next">Weiter</a></li>'));
      const second = await get('/search?q=File&page=2');
      assert.ok(second.body.includes('<p class="total" role="status">21–25 von 25</p>'));
      assert.equal((second.body.match(/<li class="hit">/g) ?? []).length, 5);
      assert.ok(second.body.includes('<a href="/search?q=File&amp;page=2" aria-current="page" aria-label="Seite 2 von 2">2</a>'));
      assert.ok(second.body.includes('<li><a href="/search?q=File" rel="prev">Zurück</a></li>'));
    });

    test("search: query= (the API's name for the words) works as q= does", async () => {
      const q = await get('/search?q=File');
      const query = await get('/search?query=File');
      assert.equal(query.statusCode, 200);
      assert.ok(query.body.includes('<p class="total" role="status">1–20 von 25</p>'));
      // The same page; only the language switch keeps the parameter as it was written.
      assert.equal(query.body, q.body.replace('href="/search?q=File&amp;lang=en"', 'href="/search?query=File&amp;lang=en"'));
      assert.ok(query.body.includes('<li><a href="/search?q=File&amp;page=2" rel="next">Weiter</a></li>'), 'links write q=');
    });

    test('search: facets are filter links with counts; a chosen one is shown and removable', async () => {
      const html = (await get('/search?q=File')).body;
      const link = '/search?q=File&amp;f=affiliate_fct%3AGoethe%2C+Johann+Wolfgang+von';
      assert.ok(
        html.includes(`<li><a href="${link}"><span class="label">Goethe, Johann Wolfgang von</span> <span class="count">3</span></a></li>`),
      );
      const filtered = (await get(link.replaceAll('&amp;', '&'))).body;
      assert.ok(filtered.includes('<p class="total" role="status">1–3 von 3</p>'));
      assert.ok(
        filtered.includes(
          '<li><a href="/search?q=File" class="chip">Person: Goethe, Johann Wolfgang von <span aria-hidden="true">×</span><span class="visually-hidden"> (Filter entfernen)</span></a></li>',
        ),
      );
      assert.ok(
        filtered.includes(
          `<li><a href="/search?q=File" aria-current="true" class="active"><span class="label">Goethe, Johann Wolfgang von</span> <span class="count">3</span></a></li>`,
        ),
      );
      // Removed again: the URL without it gives the first answer.
      assert.ok((await get('/search?q=File')).body.includes('1–20 von 25'));
    });

    test('search: the "reusable" filter keeps the licence groups reusable without asking; the groups by name', async () => {
      const html = (await get('/search?q=File')).body;
      const reusable = '/search?q=File&amp;f=license_group%3Arights_001&amp;f=license_group%3Arights_002';
      assert.ok(
        html.includes(
          `<p class="reusable"><a href="${reusable}" title="Medien ohne Bedingungen oder mit einfachen Bedingungen (Creative Commons) weiterverwendbar">Nur frei nachnutzbare</a></p>`,
        ),
      );
      // Every page package carries the Public Domain Mark: the first group.
      assert.ok(
        html.includes(
          '<li><a href="/search?q=File&amp;f=license_group%3Arights_001"><span class="label">Weiterverwendung ohne Bedingungen – frei</span> <span class="count">25</span></a></li>',
        ),
      );
      const on = (await get(reusable.replaceAll('&amp;', '&'))).body;
      assert.ok(on.includes('<p class="total" role="status">1–20 von 25</p>'));
      assert.ok(on.includes('<p class="reusable"><a href="/search?q=File" title="'), 'active: the link takes the filter off');
      assert.ok(on.includes('aria-current="true" class="active">Nur frei nachnutzbare</a></p>'));
      const en = (await get('/search?q=File&f=license_group:rights_003&lang=en')).body;
      assert.ok(en.includes('Reusable only</a></p>'));
      assert.ok(en.includes('Reuse: Reuse only with permission'), 'the active filter by name');
    });

    test('search: sorting by title, descending', async () => {
      const html = (await get('/search?q=File&sort=-title')).body;
      const ids = [...html.matchAll(/<a href="\/item\/([A-Z0-9]+)">/g)].map((m) => m[1]);
      assert.deepEqual(ids.slice(0, 3), ['FILE25', 'FILE24', 'FILE23']);
      assert.ok(html.includes('<option value="-title" selected>Titel Z–A</option>'));
    });

    test('search: the persons whose names match, beside the items', async () => {
      const html = (await get('/search?q=Goethe')).body;
      assert.match(html, /<h2 id="persons">Passende Personen \(\d+\)<\/h2>/);
      assert.ok(
        html.includes(
          '<li><a href="/person/118540238">Johann Wolfgang von Goethe</a> <span class="dates">(28. August 1749–22. März 1832)</span></li>',
        ),
      );
    });

    test('search: a variant name of a person in another script finds the items linked to the person', async () => {
      // No item's text has "Гёте"; FILE01 to FILE03 name Goethe's GND URI (docs/search.md "Names across languages and scripts").
      const html = (await get('/search?q=%D0%93%D1%91%D1%82%D0%B5')).body;
      assert.ok(html.includes('<p class="total" role="status">1–3 von 3</p>'));
      const ids = [...html.matchAll(/<a href="\/item\/([A-Z0-9]+)">/g)].map((m) => m[1]);
      assert.deepEqual(ids, ['FILE01', 'FILE02', 'FILE03']);
    });

    test('search: what cannot be used is said, in the page; a query the parser refuses is a 400 page', async () => {
      const odd = await get('/search?f=nope:x&sort=sideways&page=0');
      assert.equal(odd.statusCode, 200);
      assert.ok(
        odd.body.includes(
          '<p class="problem">Die Sortierung „sideways“ gibt es nicht: schreiben Sie sort= und eine von relevance, title, -title, date, -date.</p>',
        ),
      );
      assert.ok(
        odd.body.includes(
          '<p class="problem">Die Seite „0“ gibt es nicht, nur 1 bis 500; engen Sie die Suche ein, um weiter zu sehen.</p>',
        ),
      );
      assert.ok(
        odd.body.includes(
          '<p class="problem">Den Filter „nope:x“ kennen diese Seiten nicht: schreiben Sie f=&lt;Facette&gt;:&lt;Wert&gt;, die Facette eine von time_fct, place_fct,',
        ),
      );
      assert.ok(odd.body.includes('<p class="total" role="status">1–20 von 27</p>'), 'the rest is answered');
      const english = await get('/search?sort=sideways&lang=en');
      assert.ok(
        english.body.includes(
          '<p class="problem">The order “sideways” is not known: write sort= and one of relevance, title, -title, date, -date.</p>',
        ),
      );
      const bad = await get('/search?q=title%3A%28');
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.headers['content-type'], HTML_TYPE);
      assert.ok(bad.body.includes('<p class="problem">Query syntax error at position 7: expected a term after &#39;(&#39;.</p>'));
      const hostile = await get(`/search?q=${encodeURIComponent(HOSTILE)}`);
      assertEscaped(hostile.body);
    });

    test('item: title, display fields, media, breadcrumb, license, provider, links to its data; escaped', async () => {
      const res = await get('/item/FILE01');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], HTML_TYPE);
      const html = res.body;
      assertEscaped(html);
      assert.ok(html.includes(`<h1>File 01 ${ESCAPED}</h1>`));
      assert.ok(html.includes(`<title>File 01 ${ESCAPED} · Sammlung</title>`));
      assert.ok(html.includes('<li><a href="/item/FONDS">Fonds'));
      const crumbs = [...html.matchAll(/<li><a href="\/item\/([A-Z0-9]+)">/g)].map((m) => m[1]);
      assert.deepEqual(crumbs, ['FONDS', 'SERIES']);
      assert.ok(html.includes(`<li><span aria-current="page">File 01 ${ESCAPED}</span></li>`));
      // The record's <b> is not in the safe subset (paragraphs, line breaks, links): its text stays.
      assert.ok(html.includes('<dt>Signatur</dt>\n    <dd>Sig 01 bold</dd>'));
      assert.ok(
        html.includes(
          '<dd><span class="badge">Public Domain Mark 1.0</span> <a href="http://creativecommons.org/publicdomain/mark/1.0/deed.de" rel="license external noopener">Public Domain &lt;b&gt;Mark&lt;/b&gt;</a></dd>',
        ),
      );
      assert.ok(
        html.includes(
          '<dd><a href="/search?f=provider_fct%3AArchiv+%3Ci%3ETest%3C%2Fi%3E+%5D%5D%3E">Archiv &lt;i&gt;Test&lt;/i&gt; ]]&gt;</a> · <a href="http://example.org/archive" rel="external noopener">',
        ),
      );
      for (const [label, path, type] of [
        ['Paket (JSON, XML)', '', 'application/json'],
        ['Archivpaket (AIP, XML, JSON)', '/aip', 'application/xml'],
        ['EDM', '/edm', 'application/xml'],
        ['IIIF-Manifest', '/iiif', 'application/ld+json'],
        ['Hierarchie (parents)', '/parents', 'application/json'],
      ]) {
        assert.ok(html.includes(`<li><a href="/items/FILE01${path}" type="${type}">${label}</a></li>`), label);
      }
      assert.ok(html.includes('<a href="/item/FILE01/tree">Hierarchie durchblättern</a>'));
      // For search engines and link previews: description, canonical URL, Open Graph, schema.org JSON-LD.
      const head = html.slice(0, html.indexOf('</head>'));
      assert.ok(head.includes('<link rel="canonical" href="http://localhost:80/item/FILE01">'));
      assert.ok(head.includes('<meta property="og:url" content="http://localhost:80/item/FILE01">'));
      assert.ok(head.includes(`<meta property="og:title" content="File 01 ${ESCAPED}">`));
      assert.ok(head.includes('<meta property="og:type" content="article">'));
      assert.ok(head.includes('<meta property="og:image" content="http://localhost:80/binary/FILE01/full/1.jpg">'));
      assert.match(
        head,
        new RegExp(
          `<meta name="description" content="Sub File 01 ${ESCAPED.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · [^"]*Signatur: Sig 01 &lt;b&gt;bold[^"]*">`,
        ),
      );
      const ld = JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(head)![1]!) as Record<string, unknown>;
      assert.equal(ld['@context'], 'https://schema.org');
      assert.equal(ld['@type'], 'CreativeWork');
      assert.equal(ld.name, `File 01 ${HOSTILE}`, 'the JSON-LD holds the title as it is, escaped for the script element only');
      assert.equal(ld.url, 'http://localhost:80/item/FILE01');
      assert.deepEqual(ld.image, ['http://localhost:80/binary/FILE01/full/1.jpg', 'http://localhost:80/binary/FILE01/full/2.jpg']);
      assert.equal(ld.license, 'http://creativecommons.org/publicdomain/mark/1.0/deed.de');
      assert.deepEqual((ld.isPartOf as Record<string, unknown>)['@id'], 'http://localhost:80/item/SERIES');
      // The EDM graph in each RDF syntax (docs/linked-data.md), in the head.
      const alternates = [...html.matchAll(/<link rel="alternate" type="([^"]+)" href="([^"]+)">/g)].map((m) => `${m[1]} ${m[2]}`);
      assert.deepEqual(alternates, [
        'application/ld+json /items/FILE01',
        'text/turtle /items/FILE01',
        'application/n-triples /items/FILE01',
        'application/rdf+xml /items/FILE01',
      ]);
      assert.ok(html.indexOf('<link rel="alternate"') < html.indexOf('</head>'));
    });

    test('item: media: renditions as one image, placeholders for what no source holds, files as downloads', async () => {
      const html = (await get('/item/FILE01')).body;
      const from = html.indexOf('<section aria-labelledby="media">');
      const blatt = (n: number) => `Blatt ${n} ${ESCAPED}`;
      assert.equal(
        html.slice(from, html.indexOf('</section>', from) + 10),
        [
          '<section aria-labelledby="media">',
          '  <h2 id="media">Medien</h2>',
          '  <ul class="media">',
          // Five renditions, one image: mvpr shown (the smallest that fills the picture), full opened; grid and mvth are not in the folder.
          `    <li><a class="pic" href="/binary/FILE01/full/1.jpg"><span class="ph" aria-hidden="true">Bild · JPEG</span><img src="/binary/FILE01/mvpr/1.jpg" alt="" loading="lazy"><span class="visually-hidden">Bild öffnen: ${blatt(1)}</span></a><span class="caption">${blatt(1)}</span></li>`,
          // Not in the folder and no media.baseUrl: the placeholder alone, never an <img> that breaks.
          `    <li><span class="pic"><span class="ph">Bild · JPEG<span class="visually-hidden">: ${blatt(2)},</span> <span class="note">hier nicht verfügbar</span></span></span><span class="caption" aria-hidden="true">${blatt(2)}</span></li>`,
          '  </ul>',
          '  <ul class="files">',
          '    <li><a href="/binary/FILE01/doc/3.pdf" download>Datei: Findbuch</a> <span class="type">(PDF, 2,5 kB)</span></li>',
          '    <li>Datei: 4.bin <span class="type">(Typ unbekannt; hier nicht verfügbar)</span></li>',
          '  </ul>',
          '</section>',
        ].join('\n'),
      );
      // The similar items below the record have pictures of their own.
      const record = html.replace(/<section class="similar"[\s\S]*?<\/section>/, '');
      assert.equal((record.match(/<img /g) ?? []).length, 1, 'one <img> for five renditions; none for a file');
      const english = (await get('/item/FILE01?lang=en')).body;
      assert.ok(
        english.includes('<li><a href="/binary/FILE01/doc/3.pdf" download>File: Findbuch</a> <span class="type">(PDF, 2.5 kB)</span></li>'),
      );
      // An item without binaries: its preview thumbnail where the folder holds it, else no media at all; no IIIF link (its manifest is a 404).
      const second = (await get('/item/FILE02')).body;
      assert.ok(
        second.includes(
          `<li><a class="pic" href="/binary/FILE02/list/1.jpg"><span class="ph" aria-hidden="true">Bild · JPG</span><img src="/binary/FILE02/list/1.jpg" alt="" loading="lazy"><span class="visually-hidden">Bild öffnen: File 02 ${ESCAPED}</span></a></li>`,
        ),
      );
      assert.ok(!second.includes('/items/FILE02/iiif'));
      assert.equal((await get('/items/FILE02/iiif', t.json)).statusCode, 404);
      const third = (await get('/item/FILE03')).body;
      assert.ok(
        third.includes(
          `<li><span class="pic"><span class="ph">Bild · JPG<span class="visually-hidden">: File 03 ${ESCAPED},</span> <span class="note">hier nicht verfügbar</span></span></span></li>`,
        ),
      );
      // Its own media: no <img> (the similar items below it may show theirs).
      assert.ok(!third.slice(0, third.indexOf('<section class="similar"')).includes('<img'));
      assert.ok(third.includes('<section class="similar"'), 'similar items follow the record');
      // In the results: a thumbnail where the folder holds one, the placeholder elsewhere.
      const results = (await get('/search?q=File&sort=title')).body;
      assert.ok(
        results.includes(
          '<span class="thumb"><span class="nothumb" aria-hidden="true">T</span><img src="/binary/FILE02/list/1.jpg" alt="" loading="lazy" width="96" height="96"></span>',
        ),
      );
      assert.ok(
        results.includes('<a href="/item/FILE03">\n    <span class="thumb"><span class="nothumb" aria-hidden="true">T</span></span>'),
      );
    });

    test('item: its children, paged', async () => {
      const first = (await get('/item/SERIES')).body;
      assert.ok(first.includes('<h2 id="children">Enthält <span class="count">(25 Teile)</span></h2>'));
      assert.equal((first.match(/<li><a href="\/item\/FILE\d\d">/g) ?? []).length, 20);
      assert.ok(first.includes('<li><a href="/item/SERIES?cpage=2" rel="next">Weiter</a></li>'));
      const second = (await get('/item/SERIES?cpage=2')).body;
      const ids = [...second.matchAll(/<li><a href="\/item\/(FILE\d\d)">/g)].map((m) => m[1]);
      assert.deepEqual(ids, ['FILE21', 'FILE22', 'FILE23', 'FILE24', 'FILE25']);
      assert.ok(second.includes('<li><span>Seite 2 von 2</span></li>'));
      assert.ok(
        (await get('/item/FONDS')).body.includes(`<li><a href="/item/SERIES">Series ${ESCAPED}</a> <span class="count">(25)</span></li>`),
      );
    });

    test('tree: the collection from its root, opened down to the item, other branches one link away', async () => {
      const res = await get('/item/FILE02/tree');
      assert.equal(res.statusCode, 200);
      const html = res.body;
      assertEscaped(html);
      assert.match(html, /<nav class="tree" aria-label="Baum der Sammlung">\n {2}<ul>\n<li>\n {2}<a href="\/item\/FONDS">/);
      assert.ok(html.includes(`<a href="/item/SERIES">Series ${ESCAPED}</a> <span class="count">(25)</span>`));
      assert.ok(html.includes(`<li class="current">\n  <a href="/item/FILE02" aria-current="page">File 02 ${ESCAPED}</a>`));
      const tree = html.slice(html.indexOf('<nav class="tree"'));
      assert.equal((tree.match(/<a href="\/item\/FILE\d\d"/g) ?? []).length, 25);
      // From the root's tree, the series is one level down, with a link that opens it.
      const root = (await get('/item/FONDS/tree')).body;
      assert.ok(
        root.includes(
          `<a href="/item/SERIES">Series ${ESCAPED}</a> <a class="open" href="/item/SERIES/tree"><span aria-hidden="true">▸</span> 25<span class="visually-hidden"> Teile: öffnen</span></a>`,
        ),
      );
      assert.ok(!root.includes('/item/FILE01"'));
    });

    test('person: dates, places, occupations, variant names, GND link, the items that refer to the person', async () => {
      const res = await get('/person/118540238?lang=en');
      assert.equal(res.statusCode, 200);
      const html = res.body;
      assert.ok(html.includes('<h1>Johann Wolfgang von Goethe</h1>'));
      assert.ok(html.includes('<dt>Born</dt><dd>28 August 1749, Frankfurt am Main</dd>'));
      assert.ok(html.includes('<dt>Died</dt><dd>22 March 1832, Weimar</dd>'));
      assert.match(html, /<dt>Occupations<\/dt><dd>[^<]*Schriftsteller/);
      assert.ok(
        html.includes(
          '<a href="https://d-nb.info/gnd/118540238" rel="external noopener">Entry in the GND: https://d-nb.info/gnd/118540238</a>',
        ),
      );
      assert.ok(html.includes('<li>Goethe, Johann Wolfgang von</li>'));
      assert.ok(html.includes('<h2 id="items-about">Items about this person (3)</h2>'));
      const ids = [...html.matchAll(/<a href="\/item\/([A-Z0-9]+)\?lang=en">/g)].map((m) => m[1]);
      assert.deepEqual(ids, ['FILE01', 'FILE02', 'FILE03']);
      assert.ok(
        html.includes(
          '<a href="/search?f=affiliate_fct_normdata%3Ahttp%3A%2F%2Fd-nb.info%2Fgnd%2F118540238&amp;lang=en">All 3 items about this person</a>',
        ),
      );
      const ld = JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)![1]!) as Record<string, unknown>;
      assert.equal(ld['@type'], 'Person');
      assert.equal(ld.name, 'Johann Wolfgang von Goethe');
      assert.equal(ld.birthDate, '1749-08-28');
      assert.deepEqual(ld.birthPlace, { '@type': 'Place', name: 'Frankfurt am Main' });
      assert.deepEqual(ld.sameAs, ['https://d-nb.info/gnd/118540238']);
      assert.equal(ld.url, 'http://localhost:80/person/118540238');
      assert.ok(html.includes('<link rel="canonical" href="http://localhost:80/person/118540238">'));
      assert.ok(html.includes('<meta property="og:type" content="profile">'));
      assert.ok(!html.includes('og:image'), 'no image for a person');
      assert.match(html, /<meta name="description" content="Johann Wolfgang von Goethe · 1749-08-28 – 1832-03-22 · [^"]*Schriftsteller/);
      const alternates = [...html.matchAll(/<link rel="alternate" type="([^"]+)" href="([^"]+)">/g)].map((m) => `${m[1]} ${m[2]}`);
      assert.deepEqual(alternates, [
        'application/ld+json /entities/118540238',
        'text/turtle /entities/118540238',
        'application/n-triples /entities/118540238',
      ]);
    });

    test('what is not there is a 404 page, in the language asked', async () => {
      for (const [url, text] of [
        ['/item/NOPE', 'Es gibt kein Objekt mit der Kennung NOPE.'],
        ['/item/NOPE/tree', 'Es gibt kein Objekt mit der Kennung NOPE.'],
        ['/person/999', 'Es gibt keine Person mit der GND-Nummer 999.'],
        ['/person/%3Cscript%3E', 'Es gibt keine Person mit der GND-Nummer &lt;script&gt;.'],
      ]) {
        const res = await get(url!);
        assert.equal(res.statusCode, 404, url);
        assert.equal(res.headers['content-type'], HTML_TYPE, url);
        assert.ok(res.body.includes(`<p class="problem">${text}</p>`), url);
      }
    });

    test('the stylesheet: CSS with a validator', async () => {
      const res = await get('/assets/pages.css');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'text/css; charset=utf-8');
      assert.match(res.body, /@media \(min-width: 48rem\)/);
      const again = await get('/assets/pages.css', { 'if-none-match': String(res.headers.etag) });
      assert.equal(again.statusCode, 304);
    });

    test('page answers carry a digest ETag and answer 304 to it', async () => {
      const res = await get('/item/FILE01');
      assert.match(String(res.headers.etag), /^W\/"/);
      assert.equal((await get('/item/FILE01', { 'if-none-match': String(res.headers.etag) })).statusCode, 304);
    });
  });
}

describe('the API paths answer as they did without the pages', () => {
  test('/, /search and item routes for API clients: the same status, headers of the body and body', async () => {
    const load = [writePagePackages(hostileArchive())];
    const on = await startTestApp(BACKENDS[0]!, { load });
    const off = await startTestApp(BACKENDS[0]!, { load, flags: { web: { enabled: false } } });
    try {
      const requests: Array<{ method?: 'GET' | 'HEAD' | 'OPTIONS' | 'POST'; url: string; accept?: string }> = [
        { url: '/', accept: 'application/json' },
        { url: '/', accept: '*/*' },
        { url: '/', accept: 'text/csv' },
        { url: '/search', accept: 'application/json' },
        { url: '/search?query=x', accept: 'application/xml' },
        { method: 'POST', url: '/search', accept: 'application/json' },
        { method: 'OPTIONS', url: '/search' },
        { url: '/items/FILE01/parents', accept: 'application/json' },
        { url: '/items/SERIES/children', accept: 'application/xml' },
        { url: '/nothing/here', accept: 'application/json' },
      ];
      for (const r of requests) {
        const headers = { ...(r.accept === undefined ? {} : { accept: r.accept }), authorization: on.json.authorization! };
        const a = await on.app.inject({ method: r.method ?? 'GET', url: r.url, headers });
        const b = await off.app.inject({
          method: r.method ?? 'GET',
          url: r.url,
          headers: { ...headers, authorization: off.json.authorization! },
        });
        const what = `${r.method ?? 'GET'} ${r.url} (${r.accept})`;
        assert.equal(a.statusCode, b.statusCode, what);
        assert.equal(a.headers['content-type'], b.headers['content-type'], what);
        assert.equal(a.headers.allow, b.headers.allow, what);
        assert.equal(a.body, b.body, what);
      }
      // With the pages off, their paths are unknown to a browser too.
      const page = await off.app.inject({ url: '/item/FILE01', headers: BROWSER });
      assert.equal(page.statusCode, 404);
      assert.notEqual(page.headers['content-type'], HTML_TYPE);
    } finally {
      await on.close();
      await off.close();
    }
  });
});

describe("the pages' rate limit", () => {
  test('counts page requests per address, apart from the API', async () => {
    const t = await startTestApp(BACKENDS[0]!, {
      load: [writePagePackages(hostileArchive())],
      flags: { web: { rateLimitMax: 2, rateLimitWindowSeconds: 60 } },
    });
    try {
      const page = (url: string) => t.app.inject({ url, headers: BROWSER, remoteAddress: '10.0.0.1' });
      assert.equal((await page('/item/FILE01')).statusCode, 200);
      assert.equal((await page('/person/118540238')).statusCode, 404);
      const limited = await page('/');
      assert.equal(limited.statusCode, 429);
      assert.match(String(limited.headers['retry-after']), /^\d+$/);
      assert.equal(limited.headers['content-type'], HTML_TYPE);
      const seconds = String(limited.headers['retry-after']);
      assert.match(
        limited.body,
        new RegExp(
          `<h1>Gerade nicht möglich</h1>\\n<p class="problem">Zu viele Seitenaufrufe von dieser Adresse. Bitte versuchen Sie es in ${seconds} Sekunden noch einmal.</p>`,
        ),
      );
      const english = await t.app.inject({ url: '/', headers: { ...BROWSER, 'accept-language': 'en' }, remoteAddress: '10.0.0.1' });
      assert.equal(english.statusCode, 429);
      assert.match(
        english.body,
        new RegExp(
          `<p class="problem">Too many page requests from this address. Please try again in ${String(english.headers['retry-after'])} seconds.</p>`,
        ),
      );
      // Another address has its own count; the API is not counted with the pages.
      assert.equal((await t.app.inject({ url: '/item/FILE01', headers: BROWSER, remoteAddress: '10.0.0.2' })).statusCode, 200);
      const api = await t.app.inject({ url: '/items/FILE01/parents', headers: t.json, remoteAddress: '10.0.0.1' });
      assert.equal(api.statusCode, 200);
    } finally {
      await t.close();
    }
  });
});

describe('the item page reads both generations of real packages', () => {
  test('a newer package (bare_id.json): display fields of {content} values, binaries by ref, rights as text, license by resource', async () => {
    const t = await startTestApp(BACKENDS[0]!, { load: [`${FIXTURES}items/cortex`] });
    try {
      const res = await t.app.inject({ url: '/item/222NZKK63TNRLC2VETRV722VKBDSUVGL', headers: BROWSER });
      assert.equal(res.statusCode, 200);
      const html = res.body;
      assert.ok(html.includes('<dt>Original Titel</dt>\n    <dd>Bilder von meinem Urlaub 1942. Stätten der Kindheit</dd>'));
      assert.ok(
        html.includes(
          '<dt>Objektbeschreibung</dt>\n    <dd>Fotoalbum des Malers Willy Irmscher. Halbband; 8,5 x 12 x 2,2 cm (1942). Dresden: SLUB/DF 2018.A.67</dd>\n    <dd>Motiv: Abb. Vorsatz.',
        ),
      );
      // No media.path and no media.baseUrl: the placeholder.
      assert.match(
        html,
        /<li><span class="pic"><span class="ph">Bild · JPEG<span class="visually-hidden">: Abb\. Vorsatz[^<]+<\/span> <span class="note">hier nicht verfügbar<\/span>/,
      );
      assert.ok(!html.includes('<img'));
      assert.ok(html.includes('<dt>Rechte</dt>\n    <dd>Bitte beachten Sie die Nutzungsbedingungen der Deutschen Fotothek.</dd>'));
      assert.ok(
        html.includes(
          '<dd><span class="badge">In Copyright</span> <a href="http://rightsstatements.org/vocab/InC/1.0/" rel="license external noopener">http://rightsstatements.org/vocab/InC/1.0/</a></dd>',
        ),
      );
      // An older one (NF42…): attributes and {$} values.
      const old = (await t.app.inject({ url: '/item/NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR?lang=en', headers: BROWSER })).body;
      assert.ok(old.includes('<dt>Document type</dt>\n    <dd>Kapitel</dd>'), "the label in the page's language");
      assert.ok(old.includes('rel="license external noopener">Weltweit frei von bekannten urheberrechtlichen Einschränkungen</a>'));
      // The licence's name as a badge beside the record's wording.
      const goethe = (await t.app.inject({ url: '/item/TNPFDKO2VDGBZ72RWC6RKDNZYZQZP3XK', headers: BROWSER })).body;
      assert.ok(
        goethe.includes(
          '<dd><span class="badge">CC BY-NC-SA 4.0</span> <a href="http://creativecommons.org/licenses/by-nc-sa/4.0/" rel="license external noopener">',
        ),
      );
    } finally {
      await t.close();
    }
  });
});

describe('a blocked item', () => {
  test('is not shown: its page is a 404, and searches no longer find it', async () => {
    const t = await startTestApp(BACKENDS[0]!, { load: [writePagePackages(hostileArchive())] });
    try {
      const get = (url: string) => t.app.inject({ url, headers: BROWSER });
      assert.ok((await get('/search?q=File')).body.includes('1–20 von 25'));
      assert.equal(await t.store.blockItem('FILE25', 'a test'), true);
      const page = await get('/item/FILE25');
      assert.equal(page.statusCode, 404);
      assert.ok(page.body.includes('<p class="problem">Dieses Objekt ist gesperrt.</p>'));
      assert.ok(!page.body.includes('File 25'));
      const search = (await get('/search?q=File&page=2')).body;
      assert.ok(search.includes('21–24 von 24'));
      assert.ok(!search.includes('/item/FILE25'));
    } finally {
      await t.close();
    }
  });
});

describe('the pager', () => {
  test('links the first and the last page when its window of pages does not reach them', async () => {
    const many = Array.from({ length: 170 }, (_, i) => ({ id: `P${String(i).padStart(3, '0')}`, title: `Page item ${i}` }));
    const t = await startTestApp(BACKENDS[0]!, { load: [writePagePackages(many)] });
    try {
      const pager = async (url: string) => {
        const html = (await t.app.inject({ url, headers: BROWSER })).body;
        return html.slice(html.indexOf('<nav class="pager"'), html.indexOf('</nav>', html.indexOf('<nav class="pager"')) + 6);
      };
      const link = (page: number, current = false) =>
        `    <li><a href="/search${page === 1 ? '' : `?page=${page}`}"${current ? ' aria-current="page"' : ''} aria-label="Seite ${page} von 9">${page}</a></li>\n`;
      assert.equal(
        await pager('/search'),
        '<nav class="pager" aria-label="Seiten">\n  <ul>\n' +
          [1, 2, 3, 4].map((p) => link(p, p === 1)).join('') +
          '    <li class="gap" aria-hidden="true">…</li>\n' +
          link(9) +
          '    <li><a href="/search?page=2" rel="next">Weiter</a></li>\n  </ul>\n</nav>',
      );
      assert.equal(
        await pager('/search?page=6'),
        '<nav class="pager" aria-label="Seiten">\n  <ul>\n' +
          '    <li><a href="/search?page=5" rel="prev">Zurück</a></li>\n' +
          link(1) +
          '    <li class="gap" aria-hidden="true">…</li>\n' +
          [3, 4, 5, 6, 7, 8, 9].map((p) => link(p, p === 6)).join('') +
          '    <li><a href="/search?page=7" rel="next">Weiter</a></li>\n  </ul>\n</nav>',
      );
      // Next to the window, no gap is shown.
      assert.ok((await pager('/search?page=5')).includes(`${link(1)}${link(2)}`));
      assert.ok(!(await pager('/search?page=5')).includes('class="gap"'));
    } finally {
      await t.close();
    }
  });
});

describe('media from media.baseUrl', () => {
  test('what the media folder does not hold is shown from media.baseUrl, whose origin the CSP allows', async () => {
    // A stand-in origin that nothing answers on: the browser shows the placeholder behind the picture.
    const t = await startTestApp(BACKENDS[0]!, {
      load: [writePagePackages(hostileArchive())],
      flags: { media: { path: writePageMedia(), baseUrl: 'http://127.0.0.1:9/media/' } },
    });
    try {
      const res = await t.app.inject({ url: '/item/FILE01', headers: BROWSER });
      assert.equal(
        res.headers['content-security-policy'],
        "default-src 'none'; img-src 'self' http://127.0.0.1:9; media-src 'self' http://127.0.0.1:9; style-src 'self' 'sha256-9xTiqzfwFaL2SGb1rmr8gysEwVVjIvqWAgmZgqFqpEE='; script-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      );
      const html = res.body;
      // Image 1 from the folder's renditions; image 2 and the .bin, which it does not hold, from the base URL (through /binary's redirect).
      assert.ok(
        html.includes(
          '<li><a class="pic" href="/binary/FILE01/full/1.jpg"><span class="ph" aria-hidden="true">Bild · JPEG</span><img src="/binary/FILE01/mvpr/1.jpg" alt="" loading="lazy">',
        ),
      );
      assert.ok(
        html.includes(
          '<li><a class="pic" href="/binary/FILE01/full/2.jpg"><span class="ph" aria-hidden="true">Bild · JPEG</span><img src="/binary/FILE01/full/2.jpg" alt="" loading="lazy">',
        ),
      );
      assert.ok(
        html.includes('<li><a href="/binary/FILE01/data/4.bin" download>Datei: 4.bin</a> <span class="type">(Typ unbekannt)</span></li>'),
      );
      const redirect = await t.app.inject({ url: '/binary/FILE01/full/2.jpg' });
      assert.equal(redirect.statusCode, 307);
      assert.equal(redirect.headers.location, 'http://127.0.0.1:9/media/FILE01/full/2.jpg');
      // Every hit has a picture now, over its placeholder.
      const results = (await t.app.inject({ url: '/search?q=File', headers: BROWSER })).body;
      assert.equal((results.match(/<span class="thumb"><span class="nothumb" aria-hidden="true">T<\/span><img /g) ?? []).length, 20);
    } finally {
      await t.close();
    }
  });
});

describe('readable records', () => {
  test("labels in the page's language, language names, dates as people write them, safe HTML, each value once, URIs as links", async () => {
    const record = {
      id: 'READABLE',
      title: 'Lesbar',
      fields: [
        ['Sprache', 'fre'],
        ['Sprache', 'slv'],
        ['Entstehungszeit', '1749-08-28'],
        ['Datierung', '1949-01-01-1949-12-31'],
        ['Datierung', '1949-01-01 - 1950-12-31'],
        [
          'Beschreibung',
          'Erste Zeile<br />zweite mit <a href="https://example.org/x" onclick="steal()">Link</a> und <a href="javascript:alert(1)">ohne</a><script>alert(1)</script>',
        ],
        ['Schlagwort', 'Brief'],
        ['Thema', 'Reise'],
        ['Schlagwort', 'brief '],
        ['Schlagwort', 'Reise'],
        ['Identifikator', 'hdl:20.500.11811/1234'],
        ['Identifikator', 'urn:nbn:de:gbv:7-1'],
        ['Teil von', 'http://hdl.handle.net/1/2'],
        ['Signatur', 'A < B & C'],
      ] as Array<[string, string]>,
    };
    const t = await startTestApp(BACKENDS[0]!, { load: [writePagePackages([record])] });
    try {
      const details = async (lang: string) => {
        const html = (await t.app.inject({ url: `/item/READABLE?lang=${lang}`, headers: BROWSER })).body;
        const from = html.indexOf('<dl class="facts">');
        return html.slice(from, html.indexOf('<dt>Institution</dt>', from));
      };
      const dl = (rows: string[]) => ['<dl class="facts">', ...rows.map((r) => `    ${r}`), '    '].join('\n');
      const html =
        '<dd>Erste Zeile<br />zweite mit <a href="https://example.org/x" rel="external noopener">Link</a> und <a rel="external noopener">ohne</a></dd>';
      assert.equal(
        await details('de'),
        dl([
          '<dt>Sprache</dt>',
          '<dd>Französisch</dd>',
          '<dd>Slowenisch</dd>',
          '<dt>Entstehungszeit</dt>',
          '<dd>28. August 1749</dd>',
          '<dt>Datierung</dt>',
          '<dd>1949</dd>',
          '<dd>1949–1950</dd>',
          '<dt>Beschreibung</dt>',
          html,
          // Subjects link to a search for them (names too; a person the store knows to the person's page).
          '<dt>Schlagwort</dt>',
          '<dd><a href="/search?q=%22Brief%22&amp;lang=de">Brief</a></dd>',
          '<dd><a href="/search?q=%22Reise%22&amp;lang=de">Reise</a></dd>',
          '<dt>Thema</dt>',
          '<dd><a href="/search?q=%22Reise%22&amp;lang=de">Reise</a></dd>',
          '<dt>Identifikator</dt>',
          '<dd><a href="https://hdl.handle.net/20.500.11811/1234" rel="external noopener">hdl:20.500.11811/1234</a></dd>',
          '<dd><a href="https://nbn-resolving.org/urn:nbn:de:gbv:7-1" rel="external noopener">urn:nbn:de:gbv:7-1</a></dd>',
          '<dt>Teil von</dt>',
          '<dd><a href="http://hdl.handle.net/1/2" rel="external noopener">http://hdl.handle.net/1/2</a></dd>',
          '<dt>Signatur</dt>',
          '<dd>A &lt; B &amp; C</dd>',
        ]),
      );
      const english = await details('en');
      for (const row of [
        '<dt>Language</dt>\n    <dd>French</dd>\n    <dd>Slovenian</dd>',
        '<dt>Date of creation</dt>\n    <dd>28 August 1749</dd>',
        '<dt>Date</dt>\n    <dd>1949</dd>',
        '<dt>Description</dt>',
        '<dt>Keyword</dt>',
        '<dt>Identifier</dt>',
        '<dt>Part of</dt>',
        '<dt>Shelfmark</dt>',
      ])
        assert.ok(english.includes(row), row);
    } finally {
      await t.close();
    }
  });
});
