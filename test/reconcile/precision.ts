/**
 * Precision@1 of the reconciliation service on the fixture persons (fixtures/persons/: the
 * 1,222 GND persons of EntityFacts and the lobid-gnd records), docs/reconciliation.md
 * "Precision": each person queried (type person, no properties) by
 *
 * - a variant name: its first variant name whose words are not those of its preferred name
 *   (the same words in another order are the preferred name, not a variant);
 * - its preferred name with one typo: in its longest word of 5 or more letters, the two
 *   letters in the middle swapped (or, when they are the same letter, the middle one left out).
 *
 * A query counts when the first candidate is the person. Persons without such a variant, or
 * without a word long enough, are not queried in that set. The search is the engine of the
 * service (src/search/indexHost.ts) on the store, as the route runs it.
 */
import type { Person } from '../../src/domain/person.js';
import { nameWords } from '../../src/http/reconcile/nameSimilarity.js';
import { reconcile } from '../../src/http/reconcile/service.js';
import type { EntitySources } from '../../src/http/reconcile/entities.js';
import { IndexHost } from '../../src/search/indexHost.js';
import { DEFAULT_LIMITS } from '../../src/search/engine/searchLimits.js';
import type { Store } from '../../src/store/Store.js';

export interface PrecisionCase {
  set: 'variant name' | 'typo';
  person: string;
  query: string;
}

export interface PrecisionRow {
  set: PrecisionCase['set'];
  queries: number;
  top1: number;
  precision: number;
  /** The cases whose first candidate was another entity (or none). */
  misses: Array<PrecisionCase & { got: string | undefined }>;
}

const sameWords = (a: string, b: string) => nameWords(a).sort().join(' ') === nameWords(b).sort().join(' ');

/** The name with one typo (see the header), or undefined when no word is long enough. */
export function withTypo(name: string): string | undefined {
  const words = [...name.matchAll(/\p{L}+/gu)];
  let longest: RegExpMatchArray | undefined;
  for (const w of words) if (w[0].length >= 5 && (longest === undefined || w[0].length > longest[0].length)) longest = w;
  if (longest === undefined) return undefined;
  const word = longest[0];
  const i = Math.floor(word.length / 2) - 1;
  const changed =
    word[i] !== word[i + 1] ? word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2) : word.slice(0, i) + word.slice(i + 1);
  const at = longest.index!;
  return name.slice(0, at) + changed + name.slice(at + word.length);
}

export function precisionCases(persons: readonly Person[]): PrecisionCase[] {
  const cases: PrecisionCase[] = [];
  for (const p of persons) {
    const variant = p.variantName.find((v) => nameWords(v).length > 0 && !sameWords(v, p.preferredName));
    if (variant !== undefined) cases.push({ set: 'variant name', person: p.id, query: variant });
  }
  for (const p of persons) {
    const typo = withTypo(p.preferredName);
    if (typo !== undefined) cases.push({ set: 'typo', person: p.id, query: typo });
  }
  return cases;
}

/** The engine over the store's persons, caught up, as the service's sources. */
export async function storeSources(store: Store): Promise<EntitySources> {
  const host = new IndexHost(store, { limits: DEFAULT_LIMITS });
  while (!(await host.refresh('person', 60_000)));
  while (!(await host.refresh('item', 60_000)));
  return {
    engine: (search) => host.search(search, Date.now() + 60_000),
    institutions: () => store.listProviders(),
  };
}

/** Every person of the store, as the search holds them. */
export async function storedPersons(sources: EntitySources): Promise<Person[]> {
  const answer = await sources.engine({
    kind: 'person',
    request: { query: { kind: 'all' }, sort: { kind: 'id', descending: false }, offset: 0, rows: 100_000 },
  });
  return answer.docs.map((doc) => {
    const p = JSON.parse(doc) as Person;
    return { ...p, variantName: p.variantName ?? [] };
  });
}

export async function measurePrecision(sources: EntitySources, cases: readonly PrecisionCase[]): Promise<PrecisionRow[]> {
  const rows = new Map<PrecisionCase['set'], PrecisionRow>();
  for (const c of cases) {
    const row = rows.get(c.set) ?? { set: c.set, queries: 0, top1: 0, precision: 0, misses: [] };
    rows.set(c.set, row);
    const { result } = await reconcile(sources, { query: c.query, types: ['person'], limit: 1, properties: [] });
    row.queries++;
    const got = result[0]?.id;
    if (got === c.person) row.top1++;
    else row.misses.push({ ...c, got });
  }
  for (const row of rows.values()) row.precision = row.queries === 0 ? 0 : row.top1 / row.queries;
  return [...rows.values()];
}
