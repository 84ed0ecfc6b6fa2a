/**
 * Geography over HTTP (docs/search.md "Geography"), on both backends: EDM records whose
 * places carry wgs84_pos coordinates get a point in the view and the index; v1 /search and
 * /2/search read `geocode` (a box, a point, {!geofilt}, {!bbox}) and the coordinate ranges,
 * the Solr select reads {!geofilt}, {!bbox} and geocode:[…] in fq and sorts by geodist().
 * Whole bodies, computed here by brute force with a distance formula of its own; bad
 * coordinates are 400s that say what to fix.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { itemDocumentsFromJson, type ItemDocuments } from '../../src/search/schemas/itemDocument.js';
import { compareCodePoints } from '../../src/search/engine/order.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { tempDir } from '../helpers/tempDir.js';

const R = 6371.0087714;

/** Places with their coordinates (as gazetteers give them), two across the antimeridian. */
const PLACES: Array<[string, string, string]> = [
  ['Berlin', '52.52437', '13.41053'],
  ['Potsdam', '52.39886', '13.06566'],
  ['Leipzig', '51.33962', '12.37129'],
  ['Hamburg', '53.57532', '10.01534'],
  ['München', '48.13743', '11.57549'],
  ['Köln', '50.93333', '6.95'],
  ['Paris', '48.85341', '2.3488'],
  ['Wien', '48.20849', '16.37208'],
  ['Roma', '41.89193', '12.51133'],
  ['Suva', '-18.14161', '178.44149'],
  ['Taveuni', '-16.85', '-179.96667'],
];

/** An EDM record of a title at a place (dcterms:spatial -> edm:Place with wgs84_pos), shaped as the HOPE records are. */
function edmRecord(n: number, title: string, place: string, placeXml: string, extra = ''): string {
  const cho = `http://example.org/geo-test/${n}`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<rdf:RDF xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:edm="http://www.europeana.eu/schemas/edm/" ' +
    'xmlns:ore="http://www.openarchives.org/ore/terms/" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" ' +
    'xmlns:skos="http://www.w3.org/2004/02/skos/core#" xmlns:wgs84_pos="http://www.w3.org/2003/01/geo/wgs84_pos#">' +
    `<edm:ProvidedCHO rdf:about="${cho}">${extra}</edm:ProvidedCHO>` +
    `<ore:Aggregation rdf:about="${cho}#aggregation"><edm:aggregatedCHO rdf:resource="${cho}"/>` +
    '<edm:dataProvider>Geo test</edm:dataProvider><edm:provider>Geo test</edm:provider>' +
    `<edm:isShownAt rdf:resource="${cho}"/><edm:rights rdf:resource="http://creativecommons.org/publicdomain/zero/1.0/"/></ore:Aggregation>` +
    `<ore:Proxy rdf:about="${cho}#proxy"><dc:title>${title}</dc:title><dcterms:spatial rdf:resource="${place}"/>` +
    `<dc:type>item</dc:type><edm:type>IMAGE</edm:type><ore:proxyFor rdf:resource="${cho}"/></ore:Proxy>` +
    placeXml +
    '</rdf:RDF>'
  );
}

const placeXml = (uri: string, name: string, lat: string, long: string, ns = 'wgs84_pos') =>
  `<edm:Place rdf:about="${uri}"><skos:prefLabel>${name}</skos:prefLabel><${ns}:lat>${lat}</${ns}:lat><${ns}:long>${long}</${ns}:long></edm:Place>`;

const DIR = tempDir('geo-edm');
let n = 0;
for (const [name, lat, long] of PLACES) {
  for (let copy = 1; copy <= 3; copy++) {
    n++;
    const uri = `http://example.org/place/${encodeURIComponent(name)}`;
    writeFileSync(join(DIR, `record${n}.xml`), edmRecord(n, `${name} view ${copy}`, uri, placeXml(uri, name, lat, long)));
  }
}
// A place without coordinates, one out of range, and a museum's own place (edm:currentLocation): no point.
writeFileSync(
  join(DIR, 'nowhere.xml'),
  edmRecord(
    101,
    'Nowhere',
    'http://example.org/place/none',
    '<edm:Place rdf:about="http://example.org/place/none"><skos:prefLabel>None</skos:prefLabel></edm:Place>',
  ),
);
writeFileSync(
  join(DIR, 'bad.xml'),
  edmRecord(102, 'Bad latitude', 'http://example.org/place/bad', placeXml('http://example.org/place/bad', 'Bad', '95.2', '13.4')),
);
writeFileSync(
  join(DIR, 'kept.xml'),
  edmRecord(
    103,
    'Kept in Göttingen',
    'http://example.org/place/museum',
    placeXml('http://example.org/place/museum', 'Göttingen', '51.54', '9.93'),
    '<edm:currentLocation rdf:resource="http://example.org/place/museum"/>',
  ),
);
// The namespace without its closing '#', as Europeana's own sample record declares it.
writeFileSync(
  join(DIR, 'nohash.xml'),
  edmRecord(
    104,
    'Dresden without hash',
    'http://example.org/place/dresden',
    placeXml('http://example.org/place/dresden', 'Dresden', '51.05089', '13.73832', 'geo'),
  ).replace('xmlns:skos=', 'xmlns:geo="http://www.w3.org/2003/01/geo/wgs84_pos" xmlns:skos='),
);

async function storedItems(t: TestApp): Promise<ItemDocuments[]> {
  const out: ItemDocuments[] = [];
  let position: string | null = null;
  for (;;) {
    const batch = await t.store.readSearchChanges('item', position, 10_000);
    if ('rescan' in batch) throw new Error('rescan');
    for (const c of batch.changes) if (c.body !== null) out.push(itemDocumentsFromJson(c.body, c.id));
    position = batch.position;
    if (batch.done) return out;
  }
}

const pointOf = (d: ItemDocuments): [number, number] | null =>
  d.result.latitude === '' ? null : [Number(d.result.latitude), Number(d.result.longitude)];

/** The great-circle distance by the chord between unit vectors (the engine uses haversine). */
function km([lat1, lon1]: [number, number], [lat2, lon2]: [number, number]): number {
  const v = (lat: number, lon: number) => {
    const p = (lat * Math.PI) / 180;
    const l = (lon * Math.PI) / 180;
    return [Math.cos(p) * Math.cos(l), Math.cos(p) * Math.sin(l), Math.sin(p)];
  };
  const a = v(lat1, lon1);
  const b = v(lat2, lon2);
  return 2 * R * Math.asin(Math.min(1, Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!) / 2));
}

function byTitle(a: ItemDocuments, b: ItemDocuments): number {
  return compareCodePoints(a.search.sort.title as string, b.search.sort.title as string) || compareCodePoints(a.search.id, b.search.id);
}

const v1 = (hits: ItemDocuments[]) => ({
  numberOfResults: hits.length,
  results: [{ name: 'single', docs: hits.map((d) => d.result), numberOfDocs: hits.length }],
  facets: [],
  entities: [],
  correctedQuery: '',
  highlightedTerms: [],
  randomSeed: '',
});

const BERLIN: [number, number] = [52.52, 13.405];

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  let shared: Promise<TestApp> | undefined;
  const app = () => (shared ??= startTestApp(backend, { load: [DIR] }));

  test(`${b} EDM places give the items their points, in the view and the result docs`, async () => {
    const t = await app();
    const all = await storedItems(t);
    const point = (title: string) => {
      const d = all.find((x) => x.result.title === title);
      assert.ok(d, title);
      return [d.result.latitude, d.result.longitude];
    };
    assert.deepEqual(point('Berlin view 1'), ['52.52437', '13.41053']);
    assert.deepEqual(point('Taveuni view 2'), ['-16.85', '-179.96667']);
    assert.deepEqual(point('Dresden without hash'), ['51.05089', '13.73832']);
    for (const title of ['Nowhere', 'Bad latitude', 'Kept in Göttingen']) assert.deepEqual(point(title), ['', ''], title);
    const berlin = all.find((x) => x.result.title === 'Berlin view 1')!;
    const view = JSON.parse((await t.app.inject({ url: `/items/${berlin.search.id}/view`, headers: t.json })).body) as {
      item: { latitude: string; longitude: string };
    };
    assert.deepEqual([view.item.latitude, view.item.longitude], ['52.52437', '13.41053']);
  });

  test(`${b} /search and /2/search: geocode as a circle, a box, a point; coordinate ranges`, async () => {
    const t = await app();
    const all = (await storedItems(t)).sort(byTitle);
    const within = (d: ItemDocuments, centre: [number, number], r: number) => {
      const p = pointOf(d);
      return p !== null && km(centre, p) <= r;
    };
    const cases: Array<[string, ItemDocuments[]]> = [
      ['geocode={!geofilt pt=52.52,13.405 d=200}', all.filter((d) => within(d, BERLIN, 200))],
      ['geocode={!geofilt sfield=geocode pt=52.52,13.405 d=30}', all.filter((d) => within(d, BERLIN, 30))],
      [
        'geocode=[47.2,5.8 TO 55.1,15.1]',
        all.filter((d) => {
          const p = pointOf(d);
          return p !== null && p[0] >= 47.2 && p[0] <= 55.1 && p[1] >= 5.8 && p[1] <= 15.1;
        }),
      ],
      // across the antimeridian: west of 178 to east of -179
      [
        'geocode=[-20,178 TO -15,-179]',
        all.filter((d) => {
          const p = pointOf(d);
          return p !== null && p[0] >= -20 && p[0] <= -15 && (p[1] >= 178 || p[1] <= -179);
        }),
      ],
      ['geocode=48.13743,11.57549', all.filter((d) => d.result.latitude === '48.13743' && d.result.longitude === '11.57549')],
      [
        'geocode_0_coordinate=[50 TO 54]&geocode_1_coordinate=[9 TO *]',
        all.filter((d) => {
          const p = pointOf(d);
          return p !== null && p[0] >= 50 && p[0] <= 54 && p[1] >= 9;
        }),
      ],
      // a circle and a box: both
      [
        'geocode={!geofilt pt=52.52,13.405 d=700}&geocode=[40,10 TO 60,20]',
        all.filter((d) => within(d, BERLIN, 700) && pointOf(d)![1] >= 10 && pointOf(d)![1] <= 20 && pointOf(d)![0] >= 40),
      ],
    ];
    for (const [params, hits] of cases) {
      assert.ok(hits.length > 0 && hits.length < all.length, `${params}: ${hits.length}`);
      const url = `?${params.replace(/\{[^}]*\}|\[[^\]]*\]/g, (m) => encodeURIComponent(m))}&sort=ALPHA_ASC&rows=100`;
      for (const base of ['/search', '/2/search']) {
        const res = await t.app.inject({ url: `${base}${url}`, headers: t.json });
        assert.equal(res.statusCode, 200, `${base}${url}: ${res.body}`);
        assert.deepEqual(JSON.parse(res.body), v1(hits), `${base}${url}`);
      }
    }
    // {!bbox}: the box around the circle takes in more than the circle, no less.
    const circle = JSON.parse(
      (await t.app.inject({ url: `/search?geocode=${encodeURIComponent('{!geofilt pt=52.52,13.405 d=250}')}&rows=0`, headers: t.json }))
        .body,
    ).numberOfResults as number;
    const box = JSON.parse(
      (await t.app.inject({ url: `/search?geocode=${encodeURIComponent('{!bbox pt=52.52,13.405 d=250}')}&rows=0`, headers: t.json })).body,
    ).numberOfResults as number;
    assert.ok(box >= circle && circle > 0, `${box} ≥ ${circle}`);
  });

  test(`${b} select: {!geofilt} and {!bbox} in fq, geocode:[…], sort=geodist() asc`, async () => {
    const t = await app();
    const all = await storedItems(t);
    const near = all
      .filter((d) => pointOf(d) !== null && km(BERLIN, pointOf(d)!) <= 600)
      .sort((x, y) => km(BERLIN, pointOf(x)!) - km(BERLIN, pointOf(y)!) || compareCodePoints(x.search.id, y.search.id));
    const fq = '{!geofilt sfield=geocode pt=52.52,13.405 d=600}';
    const res = await t.app.inject({
      url: `/search/index/search/select?q=*:*&fq=${encodeURIComponent(fq)}&fl=id,latitude,longitude&sort=${encodeURIComponent('geodist() asc')}&rows=100`,
      headers: t.json,
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = JSON.parse(res.body);
    body.responseHeader.QTime = 0;
    assert.deepEqual(body, {
      responseHeader: { status: 0, QTime: 0, params: { q: '*:*', fq, fl: 'id,latitude,longitude', sort: 'geodist() asc', rows: '100' } },
      response: {
        numFound: near.length,
        start: 0,
        numFoundExact: true,
        docs: near.map((d) => ({ id: d.search.id, latitude: d.result.latitude, longitude: d.result.longitude })),
      },
    });
    // pt and d as request parameters; descending; geocode:[…] across the antimeridian
    const far = await t.app.inject({
      url: `/search/index/search/select?fq=${encodeURIComponent('{!bbox sfield=geocode}')}&pt=-17,179.5&d=300&sfield=geocode&fl=id&sort=${encodeURIComponent('geodist() desc')}&rows=100`,
      headers: t.json,
    });
    const fiji = all
      .filter((d) => ['Suva', 'Taveuni'].some((s) => d.result.title.startsWith(s)))
      .sort((x, y) => km([-17, 179.5], pointOf(y)!) - km([-17, 179.5], pointOf(x)!) || compareCodePoints(x.search.id, y.search.id));
    assert.deepEqual(
      JSON.parse(far.body).response.docs.map((d: { id: string }) => d.id),
      fiji.map((d) => d.search.id),
    );
    const range = await t.app.inject({
      url: `/search/index/search/select?fq=${encodeURIComponent('geocode:[-20,178 TO -15,-179]')}&fl=id&sort=id%20asc&rows=100`,
      headers: t.json,
    });
    assert.deepEqual(
      JSON.parse(range.body).response.docs.map((d: { id: string }) => d.id),
      fiji.map((d) => d.search.id).sort(compareCodePoints),
    );
  });

  test(`${b} bad coordinates are 400s that say what to fix`, async () => {
    const t = await app();
    const v1Cases: Array<[string, string]> = [
      [
        'geocode=95,13',
        "geocode must be latitude,longitude in decimal degrees, latitude from -90 to 90 and longitude from -180 to 180 (e.g. 52.52,13.405); got '95,13'.",
      ],
      [
        'geocode=[55,5 TO 47,15]',
        "geocode=[south,west TO north,east] is a box in decimal degrees, latitudes from -90 to 90 with south not above north, longitudes from -180 to 180 (west above east crosses the antimeridian); got '[55,5 TO 47,15]'.",
      ],
      ['geocode={!geofilt pt=52.5,13.4 d=-1}', "d must be a distance in km, from 0 to 20038 (e.g. d=25); got '-1'."],
      ['geocode={!geofilt pt=52.5,13.4}', 'geocode: {!geofilt} needs a distance: d=<km> (e.g. d=25).'],
      ['geocode={!geofilt sfield=place pt=52.5,13.4 d=5}', "sfield must be geocode, the field of the items' points; got 'place'."],
      [
        'geocode_0_coordinate=[north TO 60]',
        "geocode_0_coordinate takes a range [a TO b] or one value, in decimal degrees, latitudes from -90 to 90 (* for open); got '[north TO 60]'.",
      ],
    ];
    for (const [params, message] of v1Cases) {
      const url = `/search?${params.replace(/=(.*)$/, (_, v: string) => `=${encodeURIComponent(v)}`)}`;
      const res = await t.app.inject({ url, headers: t.json });
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.equal(res.body, JSON.stringify({ status: 400, name: 'InvalidSearchException', message }), url);
    }
    const solrCases: Array<[string, string]> = [
      [
        'fq={!geofilt pt=52.5 d=10}',
        "pt must be latitude,longitude in decimal degrees, latitude from -90 to 90 and longitude from -180 to 180 (e.g. 52.52,13.405); got '52.5'.",
      ],
      ['sort=geodist() asc', 'sort=geodist() needs the point to measure from: give pt=<lat>,<lon> (e.g. pt=52.52,13.405).'],
      ['fq={!geofilt pt=52.5,13.4 d=10 radius=3}', "fq: {!geofilt} takes sfield, pt and d, not 'radius'."],
    ];
    for (const [params, msg] of solrCases) {
      const [name, value] = params.split(/=(.*)/s) as [string, string];
      const url = `/search/index/search/select?${name}=${encodeURIComponent(value)}`;
      const res = await t.app.inject({ url, headers: t.json });
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.equal(JSON.parse(res.body).error.msg, msg, url);
    }
    const persons = await t.app.inject({
      url: `/search/index/person/select?fq=${encodeURIComponent('{!geofilt pt=52.5,13.4 d=10}')}`,
      headers: t.json,
    });
    assert.equal(persons.statusCode, 400);
    assert.equal(
      JSON.parse(persons.body).error.msg,
      'The person index has no points: fq={!geofilt pt=52.5,13.4 d=10} is for the search index.',
    );
  });

  test(`${b} the places page: the points with their counts; around a point, the nearest first with distances`, async () => {
    const t = await app();
    const all = await storedItems(t);
    const page = async (url: string) => {
      const res = await t.app.inject({ url, headers: { accept: 'text/html', 'accept-language': 'en' } });
      return { status: res.statusCode, html: res.body, rows: /<tbody>\n([\s\S]*?)\n {2}<\/tbody>/.exec(res.body)?.[1] ?? '' };
    };
    const located = all.filter((d) => pointOf(d) !== null);
    const counts = new Map<string, { name: string; lat: number; lon: number; count: number }>();
    for (const d of located) {
      const key = `${d.result.latitude},${d.result.longitude}`;
      const name = (d.search.facets.place_fct ?? [])[0]!;
      const c = counts.get(key) ?? { name, lat: Number(d.result.latitude), lon: Number(d.result.longitude), count: 0 };
      c.count++;
      counts.set(key, c);
    }
    const fmt = (x: number, digits: number) => x.toLocaleString('en', { maximumFractionDigits: digits });
    const row = (key: string, around: string, distance?: number) => {
      const c = counts.get(key)!;
      const href = `/search?f=geocode%3A${encodeURIComponent(key)}`;
      return (
        `    <tr><td><a href="${href}">${c.name}</a></td><td>${fmt(c.lat, 5)}, ${fmt(c.lon, 5)}</td><td>${c.count}</td>` +
        (distance === undefined ? '' : `<td>${fmt(distance, 1)} km</td>`) +
        `<td><a href="/places?pt=${encodeURIComponent(key)}&amp;d=${around}">Places nearby</a></td></tr>`
      );
    };
    // Every point, the most items first, ties by value.
    const byCount = [...counts.keys()].sort((x, y) => counts.get(y)!.count - counts.get(x)!.count || compareCodePoints(x, y));
    const everything = await page('/places');
    assert.equal(everything.status, 200);
    assert.ok(everything.html.includes(`The places of the items the search finds (${all.length} items)`));
    assert.equal(everything.rows, byCount.map((k) => row(k, '100')).join('\n'));
    // Around Berlin within 300 km: the nearest first, with distances.
    const near = [...counts.keys()]
      .filter((k) => km(BERLIN, [counts.get(k)!.lat, counts.get(k)!.lon]) <= 300)
      .sort((x, y) => km(BERLIN, [counts.get(x)!.lat, counts.get(x)!.lon]) - km(BERLIN, [counts.get(y)!.lat, counts.get(y)!.lon]));
    assert.ok(near.length >= 3);
    const around = await page('/places?pt=52.52,13.405&d=300');
    assert.ok(around.html.includes('Within 300 km of 52.52, 13.405: the nearest first, with their distance.'));
    assert.equal(around.rows, near.map((k) => row(k, '300', km(BERLIN, [counts.get(k)!.lat, counts.get(k)!.lon]))).join('\n'));
    // A place's link finds its items in the results page.
    const berlin = byCount.find((k) => counts.get(k)!.name === 'Berlin')!;
    const results = await t.app.inject({ url: `/search?f=geocode:${berlin}`, headers: { accept: 'text/html' } });
    assert.ok(results.body.includes('<p class="total" role="status">1–3 von 3</p>'), results.body.slice(0, 300));
    assert.ok(results.body.includes(`Ort (Koordinaten): ${berlin} <span aria-hidden="true">×</span>`), 'the filter by name');
    const bad = await page('/places?pt=95,13');
    assert.equal(bad.status, 400);
    assert.ok(
      bad.html.includes(
        'The point pt must be latitude,longitude in decimal degrees, latitude from -90 to 90 and longitude from -180 to 180, e.g. pt=52.52,13.405.',
      ),
    );
  });

  test(`${b} geo search app closes`, async () => {
    if (shared) await (await shared).close();
  });
}
