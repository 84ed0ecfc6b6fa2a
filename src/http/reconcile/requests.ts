/**
 * Reads what a reconciliation client sends (Reconciliation API 0.2, "Reconciliation
 * Queries" and "Data Extension Query Requests"; docs/reconciliation.md "Limits"): a query
 * batch (`queries`) and a data extension query (`extend`), each a JSON text. Whatever does
 * not fit is an ApiError (400, or 413 for a batch over the limit) whose message says what
 * to send instead; nothing here can fail otherwise.
 */
import { ApiError, shown } from '../../errors.js';
import type { QueryProperty } from './scoring.js';
import { isKind, KINDS, PROPERTIES, PROPERTY_BY_ID, type EntityKind } from './vocabulary.js';

/** Queries per batch at most; the manifest's `batchSize`. */
export const MAX_QUERIES = 100;
/** Ids of one data extension query at most. */
export const MAX_EXTEND_IDS = 100;
/** Candidates a query may ask for (`limit`) at most; the default when it asks for none. */
export const MAX_LIMIT = 50;
export const DEFAULT_LIMIT = 5;
/** Values of one property in a query, at most. */
const MAX_VALUES = 20;
/** A query's text at most, in characters. */
const MAX_QUERY_TEXT = 500;

export interface ReconcileQuery {
  /** The name or title; "" when the query gives properties only. */
  query: string;
  /** The types to search; all three when the query names none. */
  types: EntityKind[];
  limit: number;
  properties: QueryProperty[];
}

export interface ExtendQuery {
  ids: string[];
  properties: string[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (detail: string) => ApiError.of('badRequest', detail);

function parseJson(name: string, text: string, example: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    // The engine's own wording changes between Node versions; the position is what helps.
    const at = e instanceof SyntaxError ? /position (\d+)/.exec(e.message)?.[1] : undefined;
    const where = at === undefined ? 'it ends too early' : `it goes wrong at character ${Number(at) + 1}`;
    throw bad(`${name} is not JSON: ${where}. Send ${name}= with a JSON text, e.g. ${name}=${example}.`);
  }
}

const QUERY_KEYS = new Set(['query', 'type', 'limit', 'properties', 'type_strict']);
const TYPE_LIST = KINDS.join(', ');

function propertyValue(where: string, v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (isObject(v) && typeof v['id'] === 'string') return typeof v['name'] === 'string' && v['name'] !== '' ? v['name'] : v['id'];
  throw bad(`${where} is neither a string, a number, a boolean nor an entity {"id": …, "name": …}.`);
}

function readProperties(where: string, value: unknown, types: readonly EntityKind[]): QueryProperty[] {
  if (!Array.isArray(value)) throw bad(`${where}.properties is not an array. Send [{"pid": "dateOfBirth", "v": "1749"}, …].`);
  return value.map((p, i) => {
    const at = `${where}.properties[${i}]`;
    if (!isObject(p) || typeof p['pid'] !== 'string' || !('v' in p))
      throw bad(`${at} is not {"pid": <property id>, "v": <value or values>}.`);
    const pid = p['pid'];
    const known = PROPERTY_BY_ID.get(pid);
    const usable = PROPERTIES.filter((x) => x.matchable && types.includes(x.kind)).map((x) => x.id);
    if (known === undefined || !known.matchable || !types.includes(known.kind)) {
      throw bad(`${at}.pid '${shown(pid, 40)}' is not a property to match ${types.join(' or ')} by. Use one of ${usable.join(', ')}.`);
    }
    const raw = Array.isArray(p['v']) ? (p['v'] as unknown[]) : [p['v']];
    if (raw.length > MAX_VALUES) throw bad(`${at}.v has ${raw.length} values; send at most ${MAX_VALUES}.`);
    return { pid, values: raw.map((v, j) => propertyValue(`${at}.v${Array.isArray(p['v']) ? `[${j}]` : ''}`, v)) };
  });
}

function readQuery(id: string, value: unknown): ReconcileQuery {
  const where = `queries.${shown(id, 40)}`;
  if (!isObject(value)) throw bad(`${where} is not an object. A query is {"query": "<name>", "type": …, "limit": …, "properties": […]}.`);
  for (const key of Object.keys(value)) {
    if (!QUERY_KEYS.has(key))
      throw bad(
        `${where} has '${shown(key, 40)}', which a query does not take. A query takes query, type, limit, properties and type_strict.`,
      );
  }
  const text = value['query'];
  if (text !== undefined && (typeof text !== 'string' || text.trim() === '')) throw bad(`${where}.query is not a non-empty string.`);
  if (typeof text === 'string' && text.length > MAX_QUERY_TEXT) throw bad(`${where}.query is longer than ${MAX_QUERY_TEXT} characters.`);
  let types: EntityKind[] = [...KINDS];
  const type = value['type'];
  if (type !== undefined) {
    const list = Array.isArray(type) ? type : [type];
    if (!list.every((t): t is string => typeof t === 'string'))
      throw bad(`${where}.type is not a type id or a list of them (${TYPE_LIST}).`);
    const unknown = list.find((t) => !isKind(t));
    if (unknown !== undefined)
      throw bad(`${where}.type '${shown(unknown, 40)}' is not a type of this service. The types are ${TYPE_LIST}.`);
    if (list.length > 0) types = [...new Set(list as EntityKind[])];
  }
  const limit = value['limit'];
  if (limit !== undefined && !(typeof limit === 'number' && Number.isInteger(limit) && limit >= 1 && limit <= MAX_LIMIT)) {
    throw bad(`${where}.limit is not a whole number from 1 to ${MAX_LIMIT}.`);
  }
  const strict = value['type_strict'];
  if (strict !== undefined && strict !== 'any' && strict !== 'all' && strict !== 'should') {
    throw bad(`${where}.type_strict is not one of "any", "all", "should".`);
  }
  const properties = value['properties'] === undefined ? [] : readProperties(where, value['properties'], types);
  if (text === undefined && properties.length === 0) throw bad(`${where} has neither a query nor properties; send at least one of them.`);
  return {
    query: typeof text === 'string' ? text.trim() : '',
    types,
    limit: typeof limit === 'number' ? limit : DEFAULT_LIMIT,
    properties,
  };
}

/** A query batch: its queries by their ids, in the order sent. */
export function readQueryBatch(text: string): Array<[string, ReconcileQuery]> {
  const batch = parseJson('queries', text, '{"q0":{"query":"Goethe","type":"person"}}');
  if (!isObject(batch)) throw bad('queries is not a JSON object. Send an object of queries by id, e.g. {"q0":{"query":"Goethe"}}.');
  const entries = Object.entries(batch);
  if (entries.length > MAX_QUERIES) {
    throw ApiError.of('reconcileBatchTooLarge', entries.length, MAX_QUERIES);
  }
  return entries.map(([id, q]) => [id, readQuery(id, q)]);
}

/** A data extension query. */
export function readExtendQuery(text: string): ExtendQuery {
  const query = parseJson('extend', text, '{"ids":["http://d-nb.info/gnd/118540238"],"properties":[{"id":"dateOfBirth"}]}');
  if (!isObject(query) || !Array.isArray(query['ids']) || !Array.isArray(query['properties'])) {
    throw bad('extend is not {"ids": [<entity id>, …], "properties": [{"id": <property id>}, …]}.');
  }
  const ids = query['ids'];
  if (!ids.every((i): i is string => typeof i === 'string'))
    throw bad('extend.ids holds something other than strings: send entity ids as strings.');
  if (ids.length > MAX_EXTEND_IDS) throw ApiError.of('reconcileBatchTooLarge', ids.length, MAX_EXTEND_IDS);
  const properties = (query['properties'] as unknown[]).map((p, i) => {
    if (!isObject(p) || typeof p['id'] !== 'string') throw bad(`extend.properties[${i}] is not {"id": <property id>}.`);
    if (!PROPERTY_BY_ID.has(p['id'])) {
      throw bad(
        `extend.properties[${i}].id '${shown(p['id'], 40)}' is not a property of this service. The properties are ${PROPERTIES.map((x) => x.id).join(', ')}.`,
      );
    }
    return p['id'];
  });
  return { ids, properties: [...new Set(properties)] };
}
