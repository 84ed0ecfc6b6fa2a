/**
 * The ways to explore (docs/pages.md "Ways to explore") over HTTP on a real store with the demo's
 * records: the date range and its histogram, all values of a facet with its filter, the
 * persons index, similar items on the item page (the same as GET /search/mlt finds), the
 * home page's starts. Whole fragments of the HTML, compared as written.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { FIXTURES } from '../helpers/paths.js';

const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** The text from `start` up to and including the first `end` after it. */
function fragment(html: string, start: string, end: string): string {
  const from = html.indexOf(start);
  assert.ok(from >= 0, `the page holds ${start}`);
  const to = html.indexOf(end, from);
  assert.ok(to >= 0, `${start} ends with ${end}`);
  return html.slice(from, to + end.length);
}

const bar = (from: number, to: number, count: number, width: number, items: string) =>
  `    <li><a href="/search?q=Combat&amp;from=${from}&amp;to=${to}"><span class="visually-hidden">${from}–${to}: ${items}</span><span class="range" aria-hidden="true">${from}–${to}</span><svg class="bar" viewBox="0 0 100 12" width="100" height="12" preserveAspectRatio="none" aria-hidden="true" focusable="false"><rect x="0" y="0" width="${width}" height="12"></rect></svg><span class="count" aria-hidden="true">${count}</span></a></li>`;

for (const backend of BACKENDS) {
  describe(`ways to explore (${backend.name})`, () => {
    let t: TestApp;
    let get: (url: string, headers?: Record<string, string>) => Promise<LightMyRequestResponse>;
    before(async () => {
      t = await startTestApp(backend, { load: [`${FIXTURES}items/cortex`, `${FIXTURES}items/edm`], loadEntities: [`${FIXTURES}persons`] });
      get = (url, headers = {}) => t.app.inject({ url, headers: { ...BROWSER, ...headers } });
    });
    after(() => t.close());

    test('date range: the histogram of the hits by decade inside one century, a form for the years, a chip that removes it', async () => {
      const res = await get('/search?q=Combat&from=1950&to=1990');
      assert.equal(res.statusCode, 200);
      assert.equal(
        fragment(res.body, '<section class="timeline"', '</section>'),
        [
          '<section class="timeline" aria-labelledby="timeline-heading">',
          '  <h3 id="timeline-heading">Zeitraum: 1950–1990</h3>',
          '  <ul class="bars" aria-label="Objekte nach Zeit">',
          bar(1941, 1950, 0, 0, '0 Objekte'),
          bar(1951, 1960, 0, 0, '0 Objekte'),
          bar(1961, 1970, 481, 100, '481 Objekte'),
          bar(1971, 1980, 306, 64, '306 Objekte'),
          bar(1981, 1990, 1, 1, '1 Objekt'),
          '  </ul>',
          '  <form class="range" action="/search" method="get">',
          '    <input type="hidden" name="q" value="Combat">',
          '    <span class="control"><label for="from">Von Jahr</label> <input id="from" name="from" type="number" min="1" max="2100" step="1" inputmode="numeric" value="1950"></span>',
          '    <span class="control"><label for="to">Bis Jahr</label> <input id="to" name="to" type="number" min="1" max="2100" step="1" inputmode="numeric" value="1990"></span>',
          '    <button type="submit">Anwenden</button>',
          '  </form>',
          '  <p><a href="/search?q=Combat">Zeitraum entfernen</a></p>',
          '</section>',
        ].join('\n'),
      );
      assert.ok(res.body.includes('<p class="total" role="status">1–20 von 786</p>'));
      assert.ok(
        res.body.includes(
          '<li><a href="/search?q=Combat" class="chip">Zeitraum: 1950–1990 <span aria-hidden="true">×</span><span class="visually-hidden"> (Filter entfernen)</span></a></li>',
        ),
      );
      // The range filters: the issues of 1961–1970 only; an item counts where its dates overlap the range.
      assert.ok((await get('/search?q=Combat&from=1961&to=1970')).body.includes('<p class="total" role="status">1–20 von 481</p>'));
      assert.ok((await get('/search?q=Combat&to=1800')).body.includes('<p class="total" role="status">Keine Objekte gefunden.</p>'));
      // Written backwards, the same range; links write it forwards.
      const backwards = await get('/search?q=Combat&from=1990&to=1950');
      assert.equal(
        backwards.body,
        res.body.replace(
          'href="/search?q=Combat&amp;from=1950&amp;to=1990&amp;lang=en"',
          'href="/search?q=Combat&amp;from=1990&amp;to=1950&amp;lang=en"',
        ),
      );
    });

    test('date range: without one, a bar per century of the hits; a year that is none is named and the range left open', async () => {
      const html = (await get('/search')).body;
      const bars = [...fragment(html, '<ul class="bars"', '</ul>').matchAll(/<span class="range" aria-hidden="true">([^<]+)<\/span>/g)].map(
        (m) => m[1],
      );
      assert.deepEqual(bars, ['1501–1600', '1601–1700', '1701–1800', '1801–1900', '1901–2000', '2001–2100']);
      const bad = await get('/search?q=Combat&from=abc&to=1970');
      assert.equal(bad.statusCode, 200);
      assert.ok(
        bad.body.includes(
          '<p class="problem">Das Jahr „abc“ ist keines von 1 bis 2100; der Zeitraum beginnt oder endet deshalb offen.</p>',
        ),
      );
      assert.ok(bad.body.includes('<h3 id="timeline-heading">Zeitraum: bis 1970</h3>'));
      const en = await get('/search?q=Combat&from=99999&lang=en');
      assert.ok(en.body.includes('<p class="problem">The year “99999” is not one of 1 to 2100, so the range starts or ends open.</p>'));
    });

    test('facets: more values than shown have "show all" and a filter box, a GET form that keeps the search', async () => {
      const html = (await get('/search?f=has_media_fct%3Atrue&to=2000')).body;
      assert.equal(
        fragment(html, '  <p class="more"><a href="/facet/provider_fct', '</form>'),
        [
          '  <p class="more"><a href="/facet/provider_fct?f=has_media_fct%3Atrue&amp;to=2000">Alle anzeigen<span class="visually-hidden">: Institution</span></a></p>',
          '  <form class="facet-filter" action="/facet/provider_fct" method="get">',
          '    <input type="hidden" name="f" value="has_media_fct:true">',
          '    <input type="hidden" name="to" value="2000">',
          '    <label for="fq-provider_fct">Werte filtern<span class="visually-hidden">: Institution</span></label>',
          '    <span class="field"><input id="fq-provider_fct" name="fq" type="search" size="10"> <button type="submit">Filtern</button></span>',
          '  </form>',
        ].join('\n'),
      );
      // A facet with no more values than shown has neither.
      assert.ok(!html.includes('/facet/type_fct'));
    });

    test('all values of a facet: filtered without case or accents, ordered by count or name, each a filter link', async () => {
      const res = await get('/facet/keywords_fct?q=Combat&fq=WORK');
      assert.equal(res.statusCode, 200);
      assert.equal(
        fragment(res.body, '<main id="main" tabindex="-1">', '</main>'),
        [
          '<main id="main" tabindex="-1">',
          '<h1>Alle Werte von „Schlagwort“</h1>',
          '<p><a href="/search?q=Combat">Zurück zu den Ergebnissen</a></p>',
          '<form class="values-filter" action="/facet/keywords_fct" method="get">',
          '    <input type="hidden" name="q" value="Combat">',
          '  <span class="control"><label for="fq">Werte filtern</label>',
          '  <input id="fq" name="fq" type="search" value="WORK"></span>',
          '  <span class="control"><label for="vsort">Reihenfolge</label>',
          '  <select id="vsort" name="vsort">',
          '    <option value="count" selected>Nach Häufigkeit</option>',
          '    <option value="name">Alphabetisch</option>',
          '  </select></span>',
          '  <button type="submit">Filtern</button>',
          '</form>',
          '<p class="total" role="status">1–1 von 1 Werten</p>',
          '<section class="facet values" aria-labelledby="values-heading">',
          '  <h2 id="values-heading" class="visually-hidden">Schlagwort</h2>',
          '  <ul>',
          '    <li><a href="/search?q=Combat&amp;f=keywords_fct%3AWorkers+movements%2FWorkers+councils%2FWorkers+International+organizations"><span class="label">Workers movements/Workers councils/Workers International organizations</span> <span class="count">786</span></a></li>',
          '  </ul>',
          '</section>',
          '</main>',
        ].join('\n'),
      );
      const byName = (await get('/facet/provider_fct?vsort=name&lang=en')).body;
      const labels = [...byName.matchAll(/<span class="label">([^<]+)<\/span>/g)].map((m) => m[1]!);
      assert.equal(labels.length, 15);
      assert.deepEqual(labels, [...labels].sort());
      assert.ok(byName.includes('<p class="total" role="status">1–15 of 15 values</p>'));
      // Accents too: "universitat" finds the Universität.
      const loose = (await get('/facet/provider_fct?fq=universitat')).body;
      assert.ok(loose.includes('<span class="label">Georg-August-Universität Göttingen</span>'));
      assert.ok(
        (await get('/facet/provider_fct?fq=nothing-like-this')).body.includes(
          '<p class="total" role="status">Kein Wert enthält „nothing-like-this“.</p>',
        ),
      );
      const unknown = await get('/facet/no_such_fct');
      assert.equal(unknown.statusCode, 404);
      assert.match(unknown.body, /<p class="problem">Die Facette „no_such_fct“ gibt es nicht; es gibt time_fct, place_fct, /);
    });

    test('persons index: by initial, by items or by name, each with the count of its items', async () => {
      const all = await get('/persons');
      assert.equal(all.statusCode, 200);
      assert.ok(all.body.includes('<p class="total" role="status">1–50 von 1.235 Personen</p>'));
      assert.ok(
        all.body.includes(
          '  <li><a class="name" href="/person/118540238">Johann Wolfgang von Goethe</a> <span class="dates">(28. August 1749–22. März 1832)</span> <span class="occupations">Naturwissenschaftler, Zeichner, Theaterintendant</span>    <span class="items"><a href="/search?f=affiliate_fct_normdata%3Ahttp%3A%2F%2Fd-nb.info%2Fgnd%2F118540238">2 Objekte</a></span></li>',
        ),
        'the person most items refer to comes first',
      );
      assert.ok(all.body.includes('<li><a href="/persons" aria-current="page">Alle</a></li>'));
      assert.ok(all.body.includes('<li><a href="/persons?page=2" rel="next">Weiter</a></li>'));
      const j = (await get('/persons?initial=J&sort=name')).body;
      const names = [...j.matchAll(/<a class="name" href="[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]!);
      assert.ok(names.length > 0 && names.every((n) => n.startsWith('J')), names.join(', '));
      assert.ok(j.includes('<li><a href="/persons?initial=J&amp;sort=name" aria-current="page">J</a></li>'));
      assert.ok(j.includes('<option value="name" selected>Name A–Z</option>'));
      const bad = await get('/persons?initial=%C3%84%C3%84');
      assert.equal(bad.statusCode, 200);
      assert.ok(
        bad.body.includes('<p class="problem">Den Anfangsbuchstaben „ÄÄ“ gibt es hier nicht: schreiben Sie einen von A bis Z.</p>'),
      );
    });

    test('item page: similar items are those GET /search/mlt finds first', async () => {
      const id = 'GIXCHA7RTIIXI35PYABW46BHNE2SES5G';
      const api = await t.app.inject({ url: `/search/mlt?id=${id}&rows=6`, headers: t.json });
      assert.equal(api.statusCode, 200);
      const expected = (JSON.parse(api.body) as { results: Array<{ docs: Array<{ id: string }> }> }).results[0]!.docs.map((d) => d.id);
      assert.equal(expected.length, 6);
      const html = (await get(`/item/${id}`)).body;
      const section = fragment(html, '<section class="similar" aria-labelledby="similar-heading">', '</section>');
      assert.ok(
        section.startsWith(
          '<section class="similar" aria-labelledby="similar-heading">\n  <h2 id="similar-heading">Ähnliche Objekte</h2>\n  <ol class="hits">',
        ),
      );
      assert.deepEqual(
        [...section.matchAll(/<a href="\/item\/([A-Z0-9]+)">/g)].map((m) => m[1]),
        expected,
      );
    });

    test('home: items with images, institutions with counts and all of them, the items changed last', async () => {
      const html = (await get('/')).body;
      const tiles = [...fragment(html, '<ul class="tiles">', '</ul>').matchAll(/<li class="tile"><a href="\/item\/([A-Z0-9]+)">/g)];
      assert.equal(tiles.length, 8);
      assert.ok(
        html.includes(
          '<p class="more"><a href="/search?f=type_fct%3Amediatype_002&amp;f=has_media_fct%3Atrue">Alle anzeigen<span class="visually-hidden">: Objekte mit Bildern</span></a></p>',
        ),
      );
      assert.ok(
        html.includes(
          '    <li><a href="/search?f=provider_fct%3AGermanisches+Nationalmuseum"><span class="label">Germanisches Nationalmuseum</span> <span class="count">137</span></a></li>',
        ),
      );
      assert.ok(
        html.includes(
          '  <p class="more"><a href="/facet/provider_fct">Alle anzeigen<span class="visually-hidden">: Institutionen</span></a></p>',
        ),
      );
      // Every item has a sector now: the EDM records' from their data provider's name, where it says one.
      assert.ok(
        html.includes(
          '<li><a href="/search?f=sector_fct%3Asec_06"><span class="label">Museum</span> <span class="count">211</span></a></li>',
        ),
      );
      const recent = [...fragment(html, '<h2 id="recent">', '</ol>').matchAll(/<a href="\/item\/([A-Z0-9]+)">/g)].map((m) => m[1]!);
      assert.equal(recent.length, 8);
      const newest = (await t.store.listNewestOaiRecords(8)).map((r) => r.id);
      assert.deepEqual(recent, newest);
    });
  });
}
