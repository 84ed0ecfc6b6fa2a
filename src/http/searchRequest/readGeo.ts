/**
 * The geographic parameters of the item search (docs/search.md "Geography"), in the forms
 * the real service's Solr reads for its location field `geocode` (a LatLonType, whose
 * sub-fields are `geocode_0_coordinate`, the latitude, and `geocode_1_coordinate`, the
 * longitude; OpenAPI 6.8 names all three as parameters of /search):
 * - `geocode=[south,west TO north,east]`: a box (LatLonType's range query);
 * - `geocode=lat,lon`: the items at exactly that point;
 * - `geocode={!geofilt pt=lat,lon d=km}`, `{!bbox pt=lat,lon d=km}`: a circle, or the box
 *   around it (Solr's spatial query parsers; `sfield`, if given, is `geocode`);
 * - `geocode_0_coordinate=[a TO b]`, `geocode_1_coordinate=[a TO b]` (or one number): ranges
 *   of latitude and longitude.
 * The Solr route reads the same local params in `fq`, with `pt`, `sfield` and `d` as request
 * parameters that they default to, and sorts by `geodist()`.
 */
import { ApiError } from '../../errors.js';
import type { QueryNode } from '../../query/ast.js';
import { boxOfCircle, type GeoShape } from '../../search/engine/geo.js';

export const GEO_FIELD = 'geocode';
const LATITUDE = 'geocode_0_coordinate';
const LONGITUDE = 'geocode_1_coordinate';
/** Half the earth's circumference: no point is further. */
const MAX_KM = 20_038;

const bad = (message: string) => ApiError.of('invalidSearch', message);
const shown = (text: string) => `'${text.slice(0, 60)}'`;
const DECIMAL = /^[+-]?(\d{1,12}(\.\d{0,15})?|\.\d{1,15})$/;

function degrees(text: string, limit: number): number | undefined {
  const t = text.trim();
  if (!DECIMAL.test(t)) return undefined;
  const v = Number(t);
  return Math.abs(v) <= limit ? v : undefined;
}

/** `lat,lon` in decimal degrees, or a 400 naming `what` and the form. */
export function readPoint(text: string, what: string): { lat: number; lon: number } {
  const parts = text.split(',');
  const lat = parts.length === 2 ? degrees(parts[0]!, 90) : undefined;
  const lon = parts.length === 2 ? degrees(parts[1]!, 180) : undefined;
  if (lat === undefined || lon === undefined)
    throw bad(
      `${what} must be latitude,longitude in decimal degrees, latitude from -90 to 90 and longitude from -180 to 180 (e.g. 52.52,13.405); got ${shown(text)}.`,
    );
  return { lat, lon };
}

function readKm(text: string, what: string): number {
  const t = text.trim();
  const km = DECIMAL.test(t) ? Number(t) : NaN;
  if (!(km >= 0 && km <= MAX_KM)) throw bad(`${what} must be a distance in km, from 0 to ${MAX_KM} (e.g. d=25); got ${shown(text)}.`);
  return km;
}

/** Request-level defaults of Solr's spatial parsers: `pt`, `sfield`, `d`. */
export interface SpatialDefaults {
  pt?: string;
  sfield?: string;
  d?: string;
}

export interface LocalShape {
  shape: GeoShape;
  /** The point of the circle or box: what `geodist()` measures from. */
  lat: number;
  lon: number;
}

const LOCAL = /^\{!(geofilt|bbox)((?:\s+[A-Za-z]+=[^\s}]*)*)\s*\}$/;

/** `{!geofilt …}` / `{!bbox …}`; undefined when the text is not such local params. */
export function readLocalShape(text: string, defaults: SpatialDefaults, where: string): LocalShape | undefined {
  const t = text.trim();
  if (!t.startsWith('{!')) return undefined;
  const m = LOCAL.exec(t);
  if (m === null)
    throw bad(
      `${where} ${shown(t)} is not a spatial filter this service reads: write {!geofilt sfield=${GEO_FIELD} pt=<lat>,<lon> d=<km>} or {!bbox sfield=${GEO_FIELD} pt=<lat>,<lon> d=<km>}.`,
    );
  const params: SpatialDefaults = { ...defaults };
  for (const pair of (m[2] ?? '')
    .trim()
    .split(/\s+/)
    .filter((p) => p !== '')) {
    const eq = pair.indexOf('=');
    const key = pair.slice(0, eq);
    if (key !== 'pt' && key !== 'sfield' && key !== 'd') throw bad(`${where}: {!${m[1]}} takes sfield, pt and d, not ${shown(key)}.`);
    params[key] = pair.slice(eq + 1);
  }
  if (params.sfield !== undefined && params.sfield !== GEO_FIELD)
    throw bad(`sfield must be ${GEO_FIELD}, the field of the items' points; got ${shown(params.sfield)}.`);
  if (params.pt === undefined) throw bad(`${where}: {!${m[1]}} needs a point: pt=<lat>,<lon> (e.g. pt=52.52,13.405).`);
  if (params.d === undefined) throw bad(`${where}: {!${m[1]}} needs a distance: d=<km> (e.g. d=25).`);
  const { lat, lon } = readPoint(params.pt, 'pt');
  const km = readKm(params.d, 'd');
  const shape: GeoShape = m[1] === 'geofilt' ? { kind: 'circle', lat, lon, km } : boxOfCircle(lat, lon, km);
  return { shape, lat, lon };
}

const BOX = /^\[\s*([^\s,]+)\s*,\s*([^\s,]+)\s+TO\s+([^\s,]+)\s*,\s*([^\s,\]]+)\s*\]$/;

/** A value of v1's `geocode`: a box, a point, or spatial local params. */
export function readGeocode(text: string): { shape: GeoShape; lat?: number; lon?: number } {
  const local = readLocalShape(text, {}, 'geocode');
  if (local !== undefined) return local;
  const t = text.trim();
  const box = BOX.exec(t);
  if (box !== null) {
    const [south, west, north, east] = [degrees(box[1]!, 90), degrees(box[2]!, 180), degrees(box[3]!, 90), degrees(box[4]!, 180)];
    if (south === undefined || west === undefined || north === undefined || east === undefined || south > north)
      throw bad(
        `geocode=[south,west TO north,east] is a box in decimal degrees, latitudes from -90 to 90 with south not above north, longitudes from -180 to 180 (west above east crosses the antimeridian); got ${shown(t)}.`,
      );
    return { shape: { kind: 'box', south, west, north, east } };
  }
  if (t.startsWith('[')) throw bad(`geocode=[south,west TO north,east] is a box, e.g. geocode=[47.3,5.9 TO 55.1,15.0]; got ${shown(t)}.`);
  const { lat, lon } = readPoint(t, 'geocode');
  return { shape: { kind: 'box', south: lat, west: lon, north: lat, east: lon }, lat, lon };
}

const RANGE = /^\[\s*(\S+)\s+TO\s+(\S+)\s*\]$/;

/** v1's `geocode_0_coordinate` (latitude) or `geocode_1_coordinate` (longitude): a range or one value, as a query clause. */
export function readCoordinateRange(name: typeof LATITUDE | typeof LONGITUDE, text: string): QueryNode<string> {
  const limit = name === LATITUDE ? 90 : 180;
  const what = name === LATITUDE ? 'latitudes from -90 to 90' : 'longitudes from -180 to 180';
  const t = text.trim();
  const m = RANGE.exec(t);
  const bounds = m === null ? [t, t] : [m[1]!, m[2]!];
  const ok = bounds.every((b) => b === '*' || degrees(b, limit) !== undefined) && (m !== null || t !== '*');
  if (!ok) throw bad(`${name} takes a range [a TO b] or one value, in decimal degrees, ${what} (* for open); got ${shown(t)}.`);
  const [lower, upper] = bounds.map((b) => (b === '*' ? null : String(Number(b)))) as [string | null, string | null];
  return { kind: 'range', field: name, lower, upper, includeLower: true, includeUpper: true };
}

export const COORDINATE_PARAMETERS = [LATITUDE, LONGITUDE] as const;
