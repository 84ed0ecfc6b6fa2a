/**
 * Geographic filters and the distance order over the points of a schema's `geo` fields
 * (docs/search.md "Geography"): a circle (Solr's `{!geofilt}`: great-circle distance at most
 * `km` from a point) and a box (Solr's `{!bbox}` and LatLonType ranges: latitude and longitude
 * within bounds, a box whose west bound is east of its east bound crossing the antimeridian).
 * Distances are Solr's: the haversine formula on a sphere of the mean earth radius.
 */
import { SearchRequestError } from './errors.js';
import type { SearchIndex } from './SearchIndex.js';

/** Solr's (Spatial4j's) DistanceUtils.EARTH_MEAN_RADIUS_KM. */
export const EARTH_RADIUS_KM = 6371.0087714;

export type GeoShape =
  { kind: 'circle'; lat: number; lon: number; km: number } | { kind: 'box'; south: number; west: number; north: number; east: number };

const RAD = Math.PI / 180;

/** Great-circle distance in km between two points in degrees (haversine). */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * The box around a circle, as Solr's `{!bbox}` makes it: latitude ± the distance; longitude ±
 * the widest angle at that latitude; the whole longitude range when the box reaches a pole.
 */
export function boxOfCircle(lat: number, lon: number, km: number): Extract<GeoShape, { kind: 'box' }> {
  const angle = km / EARTH_RADIUS_KM / RAD;
  const south = lat - angle;
  const north = lat + angle;
  if (south <= -90 || north >= 90 || angle >= 90)
    return { kind: 'box', south: Math.max(south, -90), west: -180, north: Math.min(north, 90), east: 180 };
  const dLon = Math.asin(Math.min(1, Math.sin(angle * RAD) / Math.cos(lat * RAD))) / RAD;
  if (dLon >= 180) return { kind: 'box', south, west: -180, north, east: 180 };
  const wrap = (x: number) => (x < -180 ? x + 360 : x > 180 ? x - 360 : x);
  return { kind: 'box', south, west: wrap(lon - dLon), north, east: wrap(lon + dLon) };
}

/** Degrees a circle's box is widened by, so that rounding never puts a point of the circle's edge outside it. */
const BOX_MARGIN = 1e-6;

/**
 * A test of whether a point lies in a shape (the edges included), as inShape, for many points:
 * a circle first rejects what lies outside the box around it (boxOfCircle, a little wider) by
 * comparisons alone, and measures the distance only of the rest (around Leipzig, 100 km, a
 * million points each took a haversine).
 */
export function shapeTest(shape: GeoShape): (lat: number, lon: number) => boolean {
  if (shape.kind === 'box') return (lat, lon) => inShape(shape, lat, lon);
  const b = boxOfCircle(shape.lat, shape.lon, shape.km);
  const box: GeoShape = {
    kind: 'box',
    south: b.south - BOX_MARGIN,
    north: b.north + BOX_MARGIN,
    // a box of every longitude stays one; another is widened, wrapping at the antimeridian
    west: b.west === -180 && b.east === 180 ? -180 : wrapLon(b.west - BOX_MARGIN),
    east: b.west === -180 && b.east === 180 ? 180 : wrapLon(b.east + BOX_MARGIN),
  };
  return (lat, lon) => inShape(box, lat, lon) && distanceKm(shape.lat, shape.lon, lat, lon) <= shape.km;
}

const wrapLon = (x: number) => (x < -180 ? x + 360 : x > 180 ? x - 360 : x);

/** Whether a point lies in a shape (the edges included). */
export function inShape(shape: GeoShape, lat: number, lon: number): boolean {
  if (shape.kind === 'circle') return distanceKm(shape.lat, shape.lon, lat, lon) <= shape.km;
  if (lat < shape.south || lat > shape.north) return false;
  return shape.west <= shape.east ? lon >= shape.west && lon <= shape.east : lon >= shape.west || lon <= shape.east;
}

const inRange = (x: number, limit: number) => Number.isFinite(x) && Math.abs(x) <= limit;

/** A shape the engine can answer, or a SearchRequestError that says what to fix. */
export function checkShape(shape: GeoShape): void {
  if (shape.kind === 'circle') {
    if (!inRange(shape.lat, 90) || !inRange(shape.lon, 180))
      throw new SearchRequestError(
        `A point is latitude,longitude in decimal degrees, latitude -90 to 90 and longitude -180 to 180; got ${shape.lat},${shape.lon}.`,
      );
    if (!Number.isFinite(shape.km) || shape.km < 0 || shape.km > 20_038)
      throw new SearchRequestError(`A distance is in km, from 0 to 20038 (half the earth's circumference); got ${shape.km}.`);
    return;
  }
  if (!inRange(shape.south, 90) || !inRange(shape.north, 90) || !inRange(shape.west, 180) || !inRange(shape.east, 180))
    throw new SearchRequestError(
      `A box is [south,west TO north,east] in decimal degrees, latitudes -90 to 90 and longitudes -180 to 180; got [${shape.south},${shape.west} TO ${shape.north},${shape.east}].`,
    );
  if (shape.south > shape.north)
    throw new SearchRequestError(`A box's south latitude (${shape.south}) must not be north of its north latitude (${shape.north}).`);
}
/** The latitude and longitude columns of the schema's `geo` (NaN = no point). */
export function pointColumns(ix: SearchIndex): [Float64Array, Float64Array] {
  const geo = ix.schema.geo;
  if (geo === undefined) throw new SearchRequestError(`The ${ix.schema.kind} index has no points to search by place.`);
  return [ix.numbers[ix.numberField.get(geo.latitude)!]!.array, ix.numbers[ix.numberField.get(geo.longitude)!]!.array];
}
