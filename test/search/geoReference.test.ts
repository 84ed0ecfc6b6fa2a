/**
 * The engine's geographic filters and distance order (src/search/engine/geo.ts, docs/search.md
 * "Geography") against a brute force over random points, circles, boxes (across the
 * antimeridian and around the poles too) and radii: every hit, in order, on a real SearchIndex.
 * The reference computes distances its own way (the chord between unit vectors), not with
 * the engine's haversine.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQuery } from '../../src/query/parse.js';
import { SearchIndex } from '../../src/search/engine/SearchIndex.js';
import type { Schema } from '../../src/search/engine/schema.js';
import type { GeoShape } from '../../src/search/engine/geo.js';
import type { SearchDocument, SearchRequest } from '../../src/search/engine/types.js';
import { compareCodePoints } from '../../src/search/engine/order.js';
import { SearchRequestError } from '../../src/search/engine/errors.js';
import { fingerprintOf } from '../../src/search/engine/search.js';
import { mergeParts } from '../../src/search/engine/shards.js';

const R = 6371.0087714;
const FAR = () => Date.now() + 60_000;

const schema: Schema = {
  kind: 'place',
  idField: 'id',
  text: [{ name: 'title', weight: 1 }],
  facets: ['kind_fct'],
  numbers: [
    { name: 'lat', example: 'lat:[0 TO 10]' },
    { name: 'lon', example: 'lon:[0 TO 10]' },
  ],
  sortKeys: [{ name: 'title', type: 'string' }],
  relevanceTiebreak: [],
  geo: { latitude: 'lat', longitude: 'lon' },
};

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Place {
  id: string;
  point: [number, number] | null;
  even: boolean;
}

function refDistance([lat1, lon1]: [number, number], [lat2, lon2]: [number, number]): number {
  const v = (lat: number, lon: number) => {
    const p = (lat * Math.PI) / 180;
    const l = (lon * Math.PI) / 180;
    return [Math.cos(p) * Math.cos(l), Math.cos(p) * Math.sin(l), Math.sin(p)];
  };
  const a = v(lat1, lon1);
  const b = v(lat2, lon2);
  const chord = Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
  return 2 * R * Math.asin(Math.min(1, chord / 2));
}

function refInside(shape: GeoShape, [lat, lon]: [number, number]): boolean {
  if (shape.kind === 'circle') return refDistance([shape.lat, shape.lon], [lat, lon]) <= shape.km;
  const inLat = lat >= shape.south && lat <= shape.north;
  // across the antimeridian: west of east is the usual box, east of it the two halves
  const inLon = shape.west <= shape.east ? shape.west <= lon && lon <= shape.east : lon >= shape.west || lon <= shape.east;
  return inLat && inLon;
}

const seed = Number(process.env.GEO_SEED ?? 20261127);

test(`geographic filters and the distance order agree with the brute force (seed ${seed})`, () => {
  const rnd = random(seed);
  const places: Place[] = [];
  const centres: Array<[number, number]> = [];
  for (let i = 0; i < 2500; i++) {
    const id = `P${String(i).padStart(5, '0')}`;
    let point: [number, number] | null;
    const r = rnd();
    if (r < 0.1)
      point = null; // no point
    else if (r < 0.3 && centres.length > 0)
      point = centres[Math.floor(rnd() * centres.length)]!; // many items at one place
    else {
      // a latitude uniform on the sphere, poles and antimeridian included
      point = [(Math.asin(2 * rnd() - 1) * 180) / Math.PI, rnd() * 360 - 180];
      if (rnd() < 0.05) point = [rnd() < 0.5 ? 90 : -90, point[1]];
      if (rnd() < 0.05) point = [point[0], rnd() < 0.5 ? 180 : -180];
      centres.push(point);
    }
    places.push({ id, point, even: i % 2 === 0 });
  }
  const index = new SearchIndex(schema);
  const doc = (p: Place): SearchDocument => ({
    id: p.id,
    text: { title: [p.even ? 'even place' : 'odd place'] },
    facets: { kind_fct: [p.even ? 'even' : 'odd'] },
    numbers: { lat: p.point?.[0] ?? null, lon: p.point?.[1] ?? null },
    sort: { title: p.id },
  });
  for (const p of places) index.upsert(doc(p));
  // a moved and a deleted place: the index holds what is live
  places[7] = { ...places[7]!, point: [10, 20] };
  index.upsert(doc(places[7]));
  index.delete(places[8]!.id);
  places.splice(8, 1);

  const request = (extra: Partial<SearchRequest>): SearchRequest => ({
    query: parseQuery('*:*', { fields: ['title', 'kind_fct'] }),
    sort: { kind: 'id', descending: false },
    offset: 0,
    rows: 100_000,
    ...extra,
  });
  /**
   * The page's ids; the whole answer (with a facet) must be the same, byte for byte, when the
   * search is scattered in 2 and 7 shards, each evaluating its range of ordinals
   * (docs/search-engine.md "Shards").
   */
  const ids = (req: SearchRequest) => {
    const faceted = { ...req, facets: [{ field: 'kind_fct', limit: -1, mincount: 0, sort: 'count' as const }] };
    const one = JSON.stringify(index.search(faceted, FAR()));
    for (const n of [2, 7]) {
      const parts = Array.from({ length: n }, (_, i) => structuredClone(index.searchPart(faceted, FAR(), i, n)));
      assert.equal(JSON.stringify(mergeParts(faceted, parts, fingerprintOf(faceted))), one, `${n} shards: ${JSON.stringify(req)}`);
    }
    return index.search(req, FAR()).ids;
  };

  let nonEmpty = 0;
  for (let round = 0; round < 120; round++) {
    const centre: [number, number] =
      rnd() < 0.5 && centres.length > 0 ? centres[Math.floor(rnd() * centres.length)]! : [rnd() * 180 - 90, rnd() * 360 - 180];
    const km = [0, 1, 50, 500, 3000, 15000][round % 6]! * rnd() + (round % 6 === 0 ? 0 : 0.5);
    const circle: GeoShape = { kind: 'circle', lat: centre[0], lon: centre[1], km };
    const south = rnd() * 180 - 90;
    const north = Math.min(90, south + rnd() * 60);
    const west = rnd() * 360 - 180;
    const east = rnd() < 0.3 ? west - rnd() * 40 : Math.min(180, west + rnd() * 90); // some cross the antimeridian
    const box: GeoShape = { kind: 'box', south, west: Math.max(-180, west), north, east: Math.max(-180, east) };
    for (const shapes of [[circle], [box], [circle, box]]) {
      const want = places.filter((p) => p.point !== null && shapes.every((s) => refInside(s, p.point!))).map((p) => p.id);
      assert.deepEqual(ids(request({ geo: shapes })), want, JSON.stringify(shapes));
      if (want.length > 0) nonEmpty++;
      // with a query and a facet filter: AND-ed
      const odd = places.filter((p) => !p.even && p.point !== null && shapes.every((s) => refInside(s, p.point!))).map((p) => p.id);
      assert.deepEqual(
        ids(request({ query: parseQuery('title:odd', { fields: ['title'] }), geo: shapes, filters: { kind_fct: ['odd'] } })),
        odd,
      );
    }
    // The distance order: nearest first (or last), places without a point last, ties by id.
    // The two formulas differ in the last bits, so distances are compared within 1e-6 km;
    // places at one point have one distance in both, and go by id.
    for (const descending of [false, true]) {
      const byId = new Map(places.map((p) => [p.id, p]));
      const d = (p: Place) => (p.point === null ? NaN : refDistance(centre, p.point));
      const sort = { kind: 'distance', lat: centre[0], lon: centre[1], descending } as const;
      const got = ids(request({ sort }));
      assert.deepEqual([...got].sort(compareCodePoints), places.map((p) => p.id).sort(compareCodePoints), 'every place once');
      for (let i = 1; i < got.length; i++) {
        const a = byId.get(got[i - 1]!)!;
        const b = byId.get(got[i]!)!;
        const where = `distance from ${centre.join(',')} ${descending ? 'desc' : 'asc'}: ${a.id} before ${b.id}`;
        if (a.point === null) assert.ok(b.point === null && compareCodePoints(a.id, b.id) < 0, where);
        else if (b.point !== null) {
          assert.ok(descending ? d(a) >= d(b) - 1e-6 : d(a) <= d(b) + 1e-6, where);
          if (a.point[0] === b.point[0] && a.point[1] === b.point[1]) assert.ok(compareCodePoints(a.id, b.id) < 0, where);
        }
      }
      const order = got.map((id) => byId.get(id)!);
      if (round % 20 === 0) {
        // a cursor pages through the same order, each hit once
        const seen: string[] = [];
        let cursor = '*';
        for (;;) {
          const page = index.search(request({ sort, rows: 97, cursor }), FAR());
          seen.push(...page.ids);
          if (page.ids.length === 0) break;
          cursor = page.nextCursor!;
        }
        assert.deepEqual(
          seen,
          order.map((p) => p.id),
        );
      }
    }
  }
  assert.ok(nonEmpty > 100, `shapes with hits: ${nonEmpty}`);
});

test('a point, distance or box the engine cannot answer is a SearchRequestError that says what to fix', () => {
  const index = new SearchIndex(schema);
  const search = (geo: GeoShape[]) =>
    index.search({ query: parseQuery('*:*', { fields: [] }), sort: { kind: 'id', descending: false }, offset: 0, rows: 1, geo }, FAR());
  const cases: Array<[GeoShape, string]> = [
    [
      { kind: 'circle', lat: 91, lon: 0, km: 1 },
      'A point is latitude,longitude in decimal degrees, latitude -90 to 90 and longitude -180 to 180; got 91,0.',
    ],
    [{ kind: 'circle', lat: 0, lon: 0, km: -1 }, "A distance is in km, from 0 to 20038 (half the earth's circumference); got -1."],
    [{ kind: 'box', south: 10, west: 0, north: 5, east: 1 }, "A box's south latitude (10) must not be north of its north latitude (5)."],
    [
      { kind: 'box', south: 0, west: 0, north: 5, east: 181 },
      'A box is [south,west TO north,east] in decimal degrees, latitudes -90 to 90 and longitudes -180 to 180; got [0,0 TO 5,181].',
    ],
  ];
  for (const [shape, message] of cases) {
    assert.throws(
      () => search([shape]),
      (e: Error) => e instanceof SearchRequestError && e.message === message,
      JSON.stringify(shape),
    );
  }
});
