/**
 * How a candidate is scored against a reconciliation query (docs/reconciliation.md
 * "Scoring"). The Reconciliation API 0.2 leaves scoring to the service ("A Note on Candidate
 * Retrieval and Scoring") and asks for its features to be shown; ours:
 *
 * - `name`: the similarity of the query to the preferred name (../reconcile/nameSimilarity.ts),
 *   or to the best variant name times 0.98, so that a preferred name wins over the same
 *   text as another entity's variant;
 * - each property the query gives: a match adds (dates 10, others 5), a contradiction takes
 *   away (dates 25, others 5), a value the entity lacks changes nothing. Years written in the
 *   query text ("Goethe, Johann Wolfgang von (1749-1832)") count as life dates of a person
 *   (a title keeps its numbers as words);
 * - score = 100 × name + the properties' sum.
 *
 * `match` is true for the one candidate whose preferred name (title, for an item) is the
 * query's words exactly, with a date that matches (a person's life date, an item's year) and
 * no property that contradicts; an institution needs no date. Two such candidates: neither.
 */
import { fold, tokens } from '../../search/engine/fold.js';
import type { Entity } from './entities.js';
import { nameSimilarity, nameWords, sameName } from './nameSimilarity.js';

/** One property of a query, its values as text (an entity value by its name, or its id when it has none). */
export interface QueryProperty {
  pid: string;
  values: string[];
}

export interface ScoredCandidate {
  entity: Entity;
  score: number;
  match: boolean;
  features: Array<{ id: string; value: number | boolean }>;
}

const DATE_MATCH = 10;
const DATE_CONTRADICTION = 25;
const VALUE_MATCH = 5;
const VALUE_CONTRADICTION = 5;
/** Variant names read per candidate: some persons have hundreds. */
const MAX_OTHER_NAMES = 300;
const VARIANT_FACTOR = 0.98;

type Outcome = 'match' | 'contradiction' | 'unknown';

/** A year in a query value: "1749", "1749-08-28", "28. August 1749", "um 950". */
function yearIn(value: string): number | null {
  const m = /(?<!\d)-?\d{3,4}(?!\d)/.exec(value);
  return m === null ? null : Number(m[0]);
}

/** Years written in a name query: 3- or 4-digit numbers. */
export function yearsInQuery(query: string): number[] {
  return tokens(query)
    .filter((t) => /^\d{3,4}$/.test(t))
    .map(Number);
}

function compareYears(wanted: readonly string[], year: number | null): Outcome {
  const years = wanted.map(yearIn).filter((y): y is number => y !== null);
  if (years.length === 0 || year === null) return 'unknown';
  return years.includes(year) ? 'match' : 'contradiction';
}

function compareRange(wanted: readonly string[], [from, to]: [number | null, number | null]): Outcome {
  const years = wanted.map(yearIn).filter((y): y is number => y !== null);
  if (years.length === 0 || from === null) return 'unknown';
  const last = to ?? from;
  return years.some((y) => y >= from && y <= last) ? 'match' : 'contradiction';
}

/** Text values alike: the same folded words, or all words of one among those of the other ("Frankfurt" and "Frankfurt am Main"). */
function compareText(wanted: readonly string[], have: readonly string[]): Outcome {
  if (wanted.length === 0 || have.length === 0) return 'unknown';
  const words = (s: string) => new Set(tokens(s));
  for (const w of wanted) {
    const a = words(w);
    if (a.size === 0) continue;
    for (const h of have) {
      const b = words(h);
      if (b.size === 0) continue;
      const [small, large] = a.size <= b.size ? [a, b] : [b, a];
      if ([...small].every((t) => large.has(t))) return 'match';
      if (fold(w).trim() === fold(h).trim()) return 'match';
    }
  }
  return 'contradiction';
}

function compareProperty(entity: Entity, property: QueryProperty): Outcome {
  switch (property.pid) {
    case 'dateOfBirth':
      return compareYears(property.values, entity.years[0]);
    case 'dateOfDeath':
      return compareYears(property.values, entity.years[1]);
    case 'date':
      return compareRange(property.values, entity.years);
    case 'variantName': {
      const names = entity.otherNames.slice(0, MAX_OTHER_NAMES);
      if (names.length === 0) return 'unknown';
      return property.values.some((v) => names.some((n) => nameSimilarity(nameWords(v), n) >= 0.9)) ? 'match' : 'contradiction';
    }
    case 'sector': {
      // A sector as its code or its name: "sec_02", "Library".
      const have = entity.values['sector'] ?? [];
      return compareText(
        property.values,
        have.flatMap((v) => [v, v.replace(/^sec_\d+ \((.*)\)$/, '$1'), v.replace(/ \(.*\)$/, '')]),
      );
    }
    default:
      return compareText(property.values, entity.values[property.pid] ?? []);
  }
}

const isDate = (pid: string) => pid === 'dateOfBirth' || pid === 'dateOfDeath' || pid === 'date';

/** Scores one candidate; `match` is decided over all of them by decideMatches. */
export function scoreCandidate(entity: Entity, query: string, properties: readonly QueryProperty[]): ScoredCandidate {
  // A title keeps its numbers; a person's name does not (years beside it are life dates).
  const numbers = entity.kind !== 'person';
  const words = nameWords(query, numbers);
  const preferred = nameSimilarity(words, entity.name, numbers);
  let other = 0;
  for (const name of entity.otherNames.slice(0, MAX_OTHER_NAMES)) {
    if (other === 1) break;
    other = Math.max(other, nameSimilarity(words, name));
  }
  const name = Math.max(preferred, VARIANT_FACTOR * other);
  const exact = sameName(words, entity.name, numbers);

  const outcomes: Array<{ pid: string; outcome: Outcome }> = properties.map((p) => ({ pid: p.pid, outcome: compareProperty(entity, p) }));
  const written = yearsInQuery(query).map(String);
  if (written.length > 0 && entity.kind === 'person') {
    // Years beside a person's name: its birth or death.
    const outcome = [compareYears(written, entity.years[0]), compareYears(written, entity.years[1])].includes('match')
      ? 'match'
      : entity.years[0] === null && entity.years[1] === null
        ? 'unknown'
        : 'contradiction';
    outcomes.push({ pid: 'date', outcome });
  }
  let adjustment = 0;
  let matched = 0;
  let contradicted = 0;
  let dateMatched = false;
  for (const { pid, outcome } of outcomes) {
    if (outcome === 'match') {
      matched++;
      adjustment += isDate(pid) ? DATE_MATCH : VALUE_MATCH;
      if (isDate(pid)) dateMatched = true;
    } else if (outcome === 'contradiction') {
      contradicted++;
      adjustment -= isDate(pid) ? DATE_CONTRADICTION : VALUE_CONTRADICTION;
    }
  }
  const score = Math.max(0, Math.round((100 * name + adjustment) * 100) / 100);
  const features: ScoredCandidate['features'] = [
    { id: 'name_similarity', value: Math.round(name * 1000) / 1000 },
    { id: 'preferred_name_exact', value: exact },
    { id: 'properties_matched', value: matched },
    { id: 'properties_contradicted', value: contradicted },
  ];
  if (entity.kind !== 'institution') features.push({ id: 'date_matched', value: dateMatched });
  const qualifies = exact && contradicted === 0 && (dateMatched || entity.kind === 'institution');
  return { entity, score, match: qualifies, features };
}

/** Best first: score, then how often the entity is referred to, then its id (a total order, the same on every backend). */
export function rankCandidates(candidates: ScoredCandidate[]): ScoredCandidate[] {
  candidates.sort(
    (a, b) =>
      b.score - a.score || b.entity.weight - a.entity.weight || (a.entity.id < b.entity.id ? -1 : a.entity.id > b.entity.id ? 1 : 0),
  );
  // Only a single qualifying candidate is a match (see the header).
  const qualifying = candidates.filter((c) => c.match);
  if (qualifying.length > 1) for (const c of qualifying) c.match = false;
  return candidates;
}
