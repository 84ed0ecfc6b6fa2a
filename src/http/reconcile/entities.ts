/**
 * The entities the reconciliation service matches against (docs/reconciliation.md), read
 * from the search engine (persons and items: the same indexes as /entities and /search) and
 * from the store's list of institutions (few: matched in memory, the list read again when the
 * data version moves). Each comes as an Entity: its name, other names, description and the
 * values of its properties (./vocabulary.ts), what scoring, preview and data extension read.
 */
import type { ProviderSummary } from '../../domain/institution.js';
import { canonicalPersonId } from '../../domain/person.js';
import { dayNumber } from '../../ingest/edm/timeVocabulary.js';
import type { QueryNode } from '../../query/ast.js';
import { parseQuery } from '../../query/parse.js';
import { yearOf } from '../../search/engine/fold.js';
import { queryFields } from '../../search/engine/schema.js';
import type { SearchRequest, SearchSort } from '../../search/engine/types.js';
import type { EngineAnswer, EngineSearch, StoredValue } from '../../search/indexHost.js';
import { itemSchema } from '../../search/schemas/itemSchema.js';
import { personSchema } from '../../search/schemas/personSchema.js';
import { SECTOR_NAMES, type EntityKind } from './vocabulary.js';

export interface Entity {
  kind: EntityKind;
  id: string;
  name: string;
  /** Names beside `name` it is known by (a person's variant names). */
  otherNames: string[];
  description: string;
  /** Values by property id (./vocabulary.ts), as text. */
  values: Record<string, string[]>;
  /** Years: a person's birth and death, an item's first and last; null when unknown. */
  years: [number | null, number | null];
  /** How often it is referred to (items of a person, items of an institution): orders ties. */
  weight: number;
  /** Related entities for data extension: an item's provider as an institution. */
  links: Record<string, Array<{ id: string; name: string }>>;
}

export interface EntitySources {
  engine(search: EngineSearch): Promise<EngineAnswer>;
  /** The institutions of the store (Store.listProviders), remembered per data version. */
  institutions(): Promise<readonly ProviderSummary[]>;
}

/** At most this many words of a name go into a search; the rest only into scoring. */
const MAX_WORDS = 8;
/** Ids per engine search of a lookup: each is a clause. */
const IDS_PER_SEARCH = 50;

const PERSON_FIELDS = queryFields(personSchema);
const ITEM_FIELDS = queryFields(itemSchema);

const quoted = (text: string) => `"${text.replace(/["\\]/g, '\\$&')}"`;
const strings = (v: StoredValue | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : typeof v === 'string' ? (v === '' ? [] : [v]) : [String(v)];

/** The year a DDB day number falls in (days from 0001-01-01, src/ingest/edm/timeVocabulary.ts). */
export function yearOfDay(day: number): number {
  let year = Math.floor((day - 1) / 365.2425) + 1;
  while (year > -9999 && dayNumber(year, 1, 1) > day) year--;
  while (dayNumber(year + 1, 1, 1) <= day) year++;
  return year;
}

function personEntity(doc: string): Entity {
  const p = JSON.parse(doc) as Record<string, unknown>;
  const list = (key: string) => (Array.isArray(p[key]) ? (p[key] as unknown[]).map(String) : typeof p[key] === 'string' ? [p[key]] : []);
  const born = list('dateOfBirth');
  const died = list('dateOfDeath');
  const occupations = list('professionOrOccupation');
  const life = born.length + died.length > 0 ? `${born[0] ?? ''}–${died[0] ?? ''}` : '';
  return {
    kind: 'person',
    id: String(p['id']),
    name: String(p['preferredName']),
    otherNames: list('variantName'),
    description: [life, occupations.slice(0, 3).join(', ')].filter((s) => s !== '').join('; '),
    values: {
      preferredName: [String(p['preferredName'])],
      variantName: list('variantName'),
      dateOfBirth: born,
      dateOfDeath: died,
      placeOfBirth: list('placeOfBirth'),
      placeOfDeath: list('placeOfDeath'),
      professionOrOccupation: occupations,
      itemCount: typeof p['count'] === 'number' ? [String(p['count'])] : [],
    },
    years: [yearOf(born[0]), yearOf(died[0])],
    weight: typeof p['count'] === 'number' ? p['count'] : 0,
    links: {},
  };
}

function itemEntity(fields: Record<string, StoredValue>, institutions: ReadonlyMap<string, ProviderSummary>): Entity {
  const one = (key: string) => strings(fields[key])[0] ?? '';
  const begin = typeof fields['begin_time'] === 'number' ? yearOfDay(fields['begin_time']) : null;
  const end = typeof fields['end_time'] === 'number' ? yearOfDay(fields['end_time']) : null;
  const providers = strings(fields['dataprovider_fct']).length > 0 ? strings(fields['dataprovider_fct']) : strings(fields['provider_fct']);
  const places = strings(fields['place_fct']);
  const date = begin === null ? '' : end === null || end === begin ? String(begin) : `${begin}–${end}`;
  const title = one('title') || one('label') || String(fields['id']);
  return {
    kind: 'item',
    id: String(fields['id']),
    name: title,
    otherNames: [],
    description: [one('subtitle'), date, places[0] ?? '', providers[0] ?? ''].filter((s) => s !== '').join('; '),
    values: {
      title: [title],
      date: date === '' ? [] : [date],
      place: places,
      provider: providers,
      objectType: strings(fields['objecttype_fct']),
      keyword: strings(fields['keywords_fct']),
    },
    years: [begin, end ?? begin],
    weight: 0,
    links: {
      provider: providers.flatMap((name) => {
        const found = institutions.get(name);
        return found === undefined ? [] : [{ id: institutionId(found), name: found.name }];
      }),
    },
  };
}

export function institutionId(p: ProviderSummary): string {
  return p.ddbId || (p.providerId ? `provider-id:${p.providerId}` : p.key);
}

export function institutionEntity(p: ProviderSummary): Entity {
  const sectors = p.sectors.map((s) => `${s} (${SECTOR_NAMES[s] ?? s})`);
  return {
    kind: 'institution',
    id: institutionId(p),
    name: p.name,
    otherNames: [],
    description: [p.state, p.sectors.map((s) => SECTOR_NAMES[s] ?? s).join(', '), `${p.itemCount} items`]
      .filter((s) => s !== '')
      .join('; '),
    values: {
      institutionName: [p.name],
      sector: sectors,
      state: p.state === '' ? [] : [p.state],
      website: /^https?:\/\//.test(p.uri) ? [p.uri] : [],
      institutionItemCount: [String(p.itemCount)],
    },
    years: [null, null],
    weight: p.itemCount,
    links: {},
  };
}

function request(kind: 'person' | 'item', text: string, rows: number, sort: SearchSort, spellcheck: boolean): SearchRequest {
  const query: QueryNode<string> = parseQuery(text, { fields: kind === 'person' ? PERSON_FIELDS : ITEM_FIELDS, maxLength: 4000 });
  return { query, sort, offset: 0, rows, ...(spellcheck ? { spellcheck: { minHits: 1, text } } : {}) };
}

/** Institutions by name, for linking an item's provider to its institution. */
async function institutionsByName(sources: EntitySources): Promise<Map<string, ProviderSummary>> {
  return new Map((await sources.institutions()).map((p) => [p.name, p]));
}

async function run(sources: EntitySources, kind: 'person' | 'item', req: SearchRequest): Promise<EngineAnswer> {
  return sources.engine({ kind, request: req, fields: kind === 'item' });
}

async function entitiesOf(sources: EntitySources, kind: 'person' | 'item', answer: EngineAnswer): Promise<Entity[]> {
  if (kind === 'person') return answer.docs.map(personEntity);
  const byName = await institutionsByName(sources);
  // A hit deleted since the index caught up has its id alone: left out.
  return (answer.fields ?? []).filter((f) => Object.keys(f).length > 1).map((f) => itemEntity(f, byName));
}

/**
 * Candidates for a name: the entities whose name fields hold every word of it (with the
 * words the index lacks corrected by the search's spellcheck: docs/search-engine.md
 * "Spellcheck"), and those that hold any of them, best first; `rows` of each.
 */
export async function searchByName(
  sources: EntitySources,
  kind: 'person' | 'item',
  words: readonly string[],
  rows: number,
): Promise<Entity[]> {
  const used = words.slice(0, MAX_WORDS);
  if (used.length === 0) return [];
  const fields = kind === 'person' ? ['preferredName', 'variantName'] : ['title'];
  const clause = (w: string) => `(${fields.map((f) => `${f}:${quoted(w)}`).join(' OR ')})`;
  // Terms, not phrases: quoted single words are phrases of one word, which the spellcheck leaves alone.
  const term = (w: string) => `(${fields.map((f) => `${f}:${w}`).join(' OR ')})`;
  const plain = used.every((w) => /^[\p{L}\p{N}]+$/u.test(w));
  const all = used.map(plain ? term : clause).join(' AND ');
  const relevance: SearchSort = { kind: 'relevance' };
  let answer = await run(sources, kind, request(kind, all, rows, relevance, plain));
  if (answer.total === 0 && answer.correctedQuery)
    answer = await run(sources, kind, request(kind, answer.correctedQuery, rows, relevance, false));
  const found = await entitiesOf(sources, kind, answer);
  if (used.length > 1 || found.length === 0) {
    const any = used.map(clause).join(' OR ');
    found.push(...(await entitiesOf(sources, kind, await run(sources, kind, request(kind, any, rows, relevance, false)))));
  }
  const seen = new Set<string>();
  return found.filter((e) => !seen.has(e.id) && seen.add(e.id));
}

/** Entities whose names start with the words of `prefix` (the last one as a prefix): suggest. */
export async function searchByPrefix(
  sources: EntitySources,
  kind: 'person' | 'item',
  words: readonly string[],
  rows: number,
): Promise<Entity[]> {
  const used = words.slice(0, MAX_WORDS);
  if (used.length === 0 || rows === 0) return [];
  const field = kind === 'person' ? 'preferredName' : 'title';
  const text = used
    .map((w, i) => (i === used.length - 1 && /^[\p{L}\p{N}]+$/u.test(w) ? `${field}:${w}*` : `${field}:${quoted(w)}`))
    .join(' AND ');
  const sort: SearchSort =
    kind === 'person'
      ? {
          kind: 'tiers',
          exact: true,
          tiers: [],
          keys: [
            { key: 'count', descending: true },
            { key: 'preferredName', descending: false },
          ],
        }
      : { kind: 'relevance' };
  return entitiesOf(sources, kind, await run(sources, kind, request(kind, text, rows, sort, false)));
}

/** The persons and items of these ids (persons: their URIs, GND numbers too), in no particular order. */
export async function lookUp(sources: EntitySources, kind: 'person' | 'item', ids: readonly string[]): Promise<Entity[]> {
  const out: Entity[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_SEARCH) {
    const chunk = ids.slice(i, i + IDS_PER_SEARCH);
    const text = chunk.map((id) => `id:${quoted(id)}`).join(' OR ');
    out.push(
      ...(await entitiesOf(
        sources,
        kind,
        await run(sources, kind, request(kind, text, chunk.length, { kind: 'id', descending: false }, false)),
      )),
    );
  }
  return out;
}

/** A person's id as the store keeps it, from a GND number, a GND URI (http or https) or another URI; undefined otherwise. */
export function personIdOf(text: string): string | undefined {
  const trimmed = text.trim();
  if (/^\d[\dX-]*$/i.test(trimmed)) return canonicalPersonId(`http://d-nb.info/gnd/${trimmed}`) ?? undefined;
  return canonicalPersonId(trimmed) ?? undefined;
}
