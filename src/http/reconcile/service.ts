/**
 * The answers of the reconciliation service (W3C Reconciliation Service API 0.2;
 * docs/reconciliation.md): query batches, suggest for entities, types and properties, data
 * extension and its property proposals, and the entities a preview shows. HTTP is the
 * route's (../routes/reconcile.ts); this turns parsed requests into the spec's JSON.
 */
import {
  institutionEntity,
  institutionId,
  lookUp,
  personIdOf,
  searchByName,
  searchByPrefix,
  type Entity,
  type EntitySources,
} from './entities.js';
import type { ExtendQuery, ReconcileQuery } from './requests.js';
import { rankCandidates, scoreCandidate, type ScoredCandidate } from './scoring.js';
import { PROPERTIES, PROPERTY_BY_ID, TYPES, type EntityKind } from './vocabulary.js';
import { fold } from '../../search/engine/fold.js';
import { nameSimilarity, nameWords } from './nameSimilarity.js';

/** Candidates read from the search per kind and query, before scoring. */
const POOL = 25;
/** Suggestions per page (`cursor` pages on). */
export const SUGGEST_PAGE = 10;
/** The furthest a suggest `cursor` goes. */
export const MAX_CURSOR = 1000;

const TYPE_BY_ID = new Map(TYPES.map((t) => [t.id, t]));
const typeOf = (kind: EntityKind) => ({ id: kind, name: TYPE_BY_ID.get(kind)!.name });

/** An item or institution id: DDB ids are 32 letters and digits. */
const DDB_ID = /^[A-Z0-9]{32}$/;

/** The entity an id names, of any type; undefined when there is none. */
export async function entityById(sources: EntitySources, id: string): Promise<Entity | undefined> {
  return (await entitiesByIds(sources, [id])).get(id);
}

/** The entities these ids name, by id (institutions, then persons, then items). */
export async function entitiesByIds(sources: EntitySources, ids: readonly string[]): Promise<Map<string, Entity>> {
  const found = new Map<string, Entity>();
  const institutions = new Map((await sources.institutions()).map((p) => [institutionId(p), p]));
  const persons = new Map<string, string>();
  const items: string[] = [];
  for (const id of new Set(ids)) {
    const institution = institutions.get(id);
    if (institution !== undefined) found.set(id, institutionEntity(institution));
    else if (DDB_ID.test(id)) items.push(id);
    else {
      const person = personIdOf(id);
      if (person !== undefined) persons.set(person, id);
    }
  }
  if (persons.size > 0) {
    for (const e of await lookUp(sources, 'person', [...persons.keys()])) found.set(persons.get(e.id) ?? e.id, e);
  }
  if (items.length > 0) for (const e of await lookUp(sources, 'item', items)) found.set(e.id, e);
  return found;
}

async function institutionsByName(sources: EntitySources, words: readonly string[]): Promise<Entity[]> {
  const all = (await sources.institutions()).map(institutionEntity);
  return all.filter((e) => nameSimilarity(words, e.name, true) >= 0.5);
}

async function candidatesOf(sources: EntitySources, q: ReconcileQuery): Promise<Entity[]> {
  const out: Entity[] = [];
  for (const kind of q.types) {
    const words = nameWords(q.query, kind !== 'person');
    if (kind === 'institution') out.push(...(await institutionsByName(sources, words)));
    else out.push(...(await searchByName(sources, kind, words.length > 0 ? words : propertyWords(q), POOL)));
  }
  return out;
}

/** Without a name, the words of the query's property values find the candidates. */
function propertyWords(q: ReconcileQuery): string[] {
  return q.properties.flatMap((p) => p.values.flatMap((v) => nameWords(v)));
}

function candidateJson(c: ScoredCandidate) {
  return {
    id: c.entity.id,
    name: c.entity.name,
    ...(c.entity.description === '' ? {} : { description: c.entity.description }),
    type: [typeOf(c.entity.kind)],
    score: c.score,
    features: c.features,
    match: c.match,
  };
}

/** One query's result: its candidates, best first. */
export async function reconcile(sources: EntitySources, q: ReconcileQuery): Promise<{ result: Array<ReturnType<typeof candidateJson>> }> {
  // The text may be an id (Reconciliation API 0.2, "A Note on Candidate Retrieval and Scoring"): the entity itself, a certain match.
  const byId = q.query === '' ? undefined : await entityById(sources, q.query);
  if (byId !== undefined && q.types.includes(byId.kind)) {
    return { result: [candidateJson({ entity: byId, score: 100, match: true, features: [{ id: 'id_match', value: true }] })] };
  }
  const entities = await candidatesOf(sources, q);
  const seen = new Set<string>();
  const unique = entities.filter((e) => !seen.has(`${e.kind}\0${e.id}`) && seen.add(`${e.kind}\0${e.id}`));
  const ranked = rankCandidates(unique.map((e) => scoreCandidate(e, q.query, q.properties)));
  return { result: ranked.slice(0, q.limit).map(candidateJson) };
}

/** A query batch's results by query id; the queries run one after another, each on its own. */
export async function reconcileBatch(
  sources: EntitySources,
  batch: ReadonlyArray<[string, ReconcileQuery]>,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [id, q] of batch) out[id] = await reconcile(sources, q);
  return out;
}

/** Entity suggestions: persons, then institutions, then items, whose names start with the prefix; `cursor` skips. */
export async function suggestEntities(sources: EntitySources, prefix: string, cursor: number, types: readonly EntityKind[]) {
  const rows = cursor + SUGGEST_PAGE;
  const found: Entity[] = [];
  const byId = await entityById(sources, prefix.trim());
  if (byId !== undefined && types.includes(byId.kind)) found.push(byId);
  for (const kind of types) {
    if (found.length >= rows) break;
    if (kind === 'institution') {
      const folded = fold(prefix).trim();
      found.push(...(await sources.institutions()).filter((p) => folded !== '' && fold(p.name).includes(folded)).map(institutionEntity));
    } else found.push(...(await searchByPrefix(sources, kind, nameWords(prefix, kind === 'item'), rows - found.length)));
  }
  const seen = new Set<string>();
  return {
    result: found
      .filter((e) => !seen.has(e.id) && seen.add(e.id))
      .slice(cursor, rows)
      .map((e) => ({ id: e.id, name: e.name, ...(e.description === '' ? {} : { description: e.description }), notable: [typeOf(e.kind)] })),
  };
}

const matchesPrefix = (prefix: string, ...texts: string[]) => {
  const p = fold(prefix).trim();
  return p === '' || texts.some((t) => fold(t).includes(p));
};

export function suggestTypes(prefix: string, cursor: number) {
  return {
    result: TYPES.filter((t) => matchesPrefix(prefix, t.id, t.name))
      .slice(cursor, cursor + SUGGEST_PAGE)
      .map((t) => ({ id: t.id, name: t.name, description: t.description })),
  };
}

export function suggestProperties(prefix: string, cursor: number) {
  return {
    result: PROPERTIES.filter((p) => matchesPrefix(prefix, p.id, p.name))
      .slice(cursor, cursor + SUGGEST_PAGE)
      .map((p) => ({
        id: p.id,
        name: p.name,
        description: `${TYPE_BY_ID.get(p.kind)!.name}${p.matchable ? '' : '; for data extension only'}`,
      })),
  };
}

/** Data extension property proposals for a type (all of its properties, or the first `limit`). */
export function proposeProperties(type: EntityKind, limit: number | undefined) {
  const properties = PROPERTIES.filter((p) => p.kind === type).map((p) => ({ id: p.id, name: p.name }));
  return { type, ...(limit === undefined ? {} : { limit }), properties: limit === undefined ? properties : properties.slice(0, limit) };
}

type ExtendValue = { str: string } | { int: number } | { id: string; name: string };

function valuesOf(entity: Entity | undefined, property: string): ExtendValue[] {
  if (entity === undefined || PROPERTY_BY_ID.get(property)?.kind !== entity.kind) return [];
  const links = entity.links[property];
  if (links !== undefined && links.length > 0) return links;
  return (entity.values[property] ?? []).map((v) => (/Count$/.test(property) && /^\d+$/.test(v) ? { int: Number(v) } : { str: v }));
}

/** A data extension response: each id's values of each property (none for an id that names nothing). */
export async function extend(sources: EntitySources, query: ExtendQuery) {
  const found = await entitiesByIds(sources, query.ids);
  const rows: Record<string, Record<string, ExtendValue[]>> = {};
  for (const id of query.ids) {
    const entity = found.get(id);
    rows[id] = Object.fromEntries(query.properties.map((p) => [p, valuesOf(entity, p)]));
  }
  return {
    meta: query.properties.map((id) => {
      const p = PROPERTY_BY_ID.get(id)!;
      // An item's provider is an institution of this same service.
      return { id, name: p.name, ...(id === 'provider' ? { type: typeOf('institution') } : {}) };
    }),
    rows,
  };
}
