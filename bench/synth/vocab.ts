/**
 * Vocabularies and proportions for synthetic persons, taken at generation
 * time from the real DNB EntityFacts records in fixtures/ (1,222 persons):
 * forenames (all and women's), surnames, occupations and places ranked by
 * their real frequency, and the real shares of optional fields. The 1,168 real
 * surnames are far too few for a million persons, so a long tail of plausible
 * surnames is made by recombining their syllables (Fried+mann, Bier+ell, ...).
 *
 * Every string is kept as a Piece: its text and the ids of the tokens the
 * entity search indexes for it (src/search/engine/fold.ts), so that the generator
 * can count term hits exactly without re-tokenising a million persons.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mapEntityFacts } from '../../src/ingest/persons/entityFactsFormat.js';
import type { Person } from '../../src/domain/person.js';
import { tokens } from '../../src/search/engine/fold.js';
import { Discrete, Rng } from './rng.js';

export const ENTITYFACTS_FILE = fileURLToPath(new URL('../../fixtures/persons/entityfacts/culturehub-1222-persons.json', import.meta.url));

/** Where a token comes from; candidates for the benchmark's terms are name, occupation and place words. */
export const KIND = { forename: 1, surname: 2, occupation: 4, place: 8, other: 16 } as const;

/** A string and the ids of its index tokens. */
export interface Piece {
  text: string;
  tokens: number[];
}

/** Interns folded tokens; remembers a readable spelling of each and which vocabularies use it. */
export class TokenTable {
  private readonly ids = new Map<string, number>();
  readonly folded: string[] = [];
  readonly display: string[] = [];
  readonly kinds: number[] = [];
  private readonly cache = new Map<string, Piece>();

  get size(): number {
    return this.folded.length;
  }

  private intern(token: string): number {
    let id = this.ids.get(token);
    if (id === undefined) {
      id = this.folded.length;
      this.ids.set(token, id);
      this.folded.push(token);
      this.display.push('');
      this.kinds.push(0);
    }
    return id;
  }

  idOf(token: string): number | undefined {
    return this.ids.get(token);
  }

  piece(text: string, kind: number = KIND.other): Piece {
    const ids = [...new Set(tokens(text).map((t) => this.intern(t)))];
    for (const id of ids) this.kinds[id]! |= kind;
    // A readable form for single-token words ("Müller" for "muller").
    for (const word of text.split(/[^\p{L}\p{N}\p{M}]+/u)) {
      const t = tokens(word);
      if (t.length === 1) {
        const id = this.intern(t[0]!);
        if (this.display[id] === '') this.display[id] = word;
      }
    }
    return { text, tokens: ids };
  }

  /** For the many repeats of small strings: years, days, months. */
  cached(text: string, kind: number = KIND.other): Piece {
    let p = this.cache.get(text);
    if (p === undefined) {
      p = this.piece(text, kind);
      this.cache.set(text, p);
    }
    return p;
  }
}

export interface Forename {
  full: Piece;
  /** The first of several forenames ("Karl" of "Karl Friedrich"). */
  first: Piece;
  /** "K. F." */
  initials: Piece;
}

export interface Surname {
  full: Piece;
  /** Another spelling ("Mueller" for "Müller"), as variant names have them; null when there is none. */
  alt: Piece | null;
}

/** Shares of optional fields in the real file (joint where fields go together). */
export interface Proportions {
  /** [birth and death, birth only, death only, neither] dates. */
  dates: number[];
  /** [both places, birth place only, death place only, neither]. */
  places: number[];
  /** Of persons with both places, the share born and died in the same place. */
  samePlace: number;
  /** Share of dates that are a bare year ("1878"), the rest "21. Januar 1878". */
  yearOnly: number;
  gender: number;
  /** Share of women among persons with a gender. */
  female: number;
  variants: number;
  noForename: number;
  particle: number;
}

export interface Vocab {
  table: TokenTable;
  forenames: Forename[];
  femaleForenames: Forename[];
  surnames: Surname[];
  /** Occupations for drawing (masculine or neutral forms, ranked). */
  occupations: Piece[];
  /** Index i: the feminine form of occupations[i] when the real file has one ("Schriftstellerin"). */
  femaleOccupations: (Piece | null)[];
  places: Piece[];
  particles: Piece[];
  months: Piece[];
  male: Piece;
  female: Piece;
  proportions: Proportions;
  /** Number of variant names of a person who has some (real histogram, index = count). */
  variantCounts: Discrete;
  /** Number of occupations of a person (real histogram, index = count, 0 included). */
  occupationCounts: Discrete;
  /** The first real records, as fixed persons the benchmark can name (ids replaced). */
  known: Person[];
  realSurnames: number;
}

export const MONTHS = [
  'Januar',
  'Februar',
  'März',
  'April',
  'Mai',
  'Juni',
  'Juli',
  'August',
  'September',
  'Oktober',
  'November',
  'Dezember',
];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const labelsOf = (v: unknown): string[] =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v])
    .map((x) => (isObject(x) ? x['@value'] : x))
    .filter((x): x is string => typeof x === 'string' && x.trim() !== '')
    .map((x) => x.trim());

/** Terms ranked by real frequency; ties in code-unit order, so the ranking is the same everywhere. */
function ranked(counts: Map<string, number>): string[] {
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([t]) => t);
}

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

const VOWEL = /[aeiouyäöü]/;

/** Head and tail of a surname at a syllable boundary near the middle ("Fried|ell"), or null. */
function splitSurname(name: string): [string, string] | null {
  let best = -1;
  for (let k = 2; k <= name.length - 2; k++) {
    if (VOWEL.test(name[k - 1]!) && !VOWEL.test(name[k]!) && (best < 0 || Math.abs(k - name.length / 2) < Math.abs(best - name.length / 2)))
      best = k;
  }
  return best < 0 ? null : [name.slice(0, best), name.slice(best)];
}

const SPELLINGS: Array<[RegExp, string]> = [
  [/ü/, 'ue'],
  [/ö/, 'oe'],
  [/ä/, 'ae'],
  [/ß/, 'ss'],
  [/ph/, 'f'],
  [/th/, 't'],
  [/ck/, 'k'],
  [/tz/, 'z'],
  [/dt/, 't'],
  [/^C/, 'K'],
  [/ei/, 'ai'],
  [/y/, 'i'],
  [/mann$/, 'man'],
  [/ss/, 'ß'],
];

function altSpelling(name: string): string | null {
  for (const [re, to] of SPELLINGS) if (re.test(name)) return name.replace(re, to);
  return null;
}

function initials(forename: string): string {
  return forename
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => (w.endsWith('.') ? w : `${[...w][0]}.`))
    .join(' ');
}

/** Size of the surname vocabulary: the real ones, then recombined ones. */
export const SURNAMES = 200_000;
/** Fixed, so that vocabularies and rankings do not change with --seed. */
const VOCAB_SEED = 0x5eed;

export function loadVocab(file = ENTITYFACTS_FILE, knownCount = 10): Vocab {
  const records = JSON.parse(readFileSync(file, 'utf8')) as unknown[];
  const persons = records.filter(isObject).filter((r) => isObject(r.person));
  const table = new TokenTable();

  const forenames = new Map<string, number>();
  const femaleForenames = new Map<string, number>();
  const surnames = new Map<string, number>();
  const occupations = new Map<string, number>();
  const places = new Map<string, number>();
  const variantHist: number[] = [];
  const occupationHist: number[] = [];
  const dates = [0, 0, 0, 0];
  const placeShares = [0, 0, 0, 0];
  let same = 0;
  let dateValues = 0;
  let yearOnly = 0;
  let gendered = 0;
  let women = 0;
  let withVariants = 0;
  let noForename = 0;
  let particle = 0;

  for (const rec of persons) {
    const p = rec.person as Json;
    const gender = labelsOf(p.gender)[0];
    const forename = typeof p.forename === 'string' ? p.forename.trim() : '';
    if (gender !== undefined) gendered++;
    if (gender === 'Frau') women++;
    if (forename) count(gender === 'Frau' ? femaleForenames : forenames, forename);
    else noForename++;
    if (typeof p.surname === 'string' && p.surname.trim()) count(surnames, p.surname.trim());
    if (typeof p.prefix === 'string') particle++;
    const occ = labelsOf(p.professionOrOccupation);
    occupationHist[occ.length] = (occupationHist[occ.length] ?? 0) + 1;
    for (const o of new Set(occ)) count(occupations, o);
    const variants = labelsOf(p.variantName);
    if (variants.length > 0) {
      withVariants++;
      variantHist[variants.length] = (variantHist[variants.length] ?? 0) + 1;
    }
    const birth = labelsOf(p.dateOfBirth)[0];
    const death = labelsOf(p.dateOfDeath)[0];
    dates[birth && death ? 0 : birth ? 1 : death ? 2 : 3]!++;
    for (const d of [birth, death]) {
      if (d === undefined) continue;
      dateValues++;
      if (/^\d{3,4}$/.test(d)) yearOnly++;
    }
    const pb = labelsOf(p.placeOfBirth)[0];
    const pd = labelsOf(p.placeOfDeath)[0];
    placeShares[pb && pd ? 0 : pb ? 1 : pd ? 2 : 3]!++;
    if (pb && pd && pb === pd) same++;
    for (const pl of [pb, pd]) if (pl) count(places, pl);
  }

  const n = persons.length;
  const toForename = (f: string): Forename => ({
    full: table.piece(f, KIND.forename),
    first: table.piece(f.split(/\s+/)[0]!, KIND.forename),
    initials: table.piece(initials(f), KIND.other),
  });
  // Men's and unknown persons' forenames; women's apart, so that "Frau" persons are named like women.
  const forenameList = ranked(forenames).map(toForename);
  const femaleList = ranked(femaleForenames).map(toForename);

  const realSurnames = ranked(surnames);
  const surnameSet = new Set(realSurnames);
  const heads = new Set<string>();
  const tails = new Set<string>();
  for (const s of realSurnames) {
    if (!/^\p{Lu}\p{Ll}{3,}$/u.test(s)) continue;
    const split = splitSurname(s);
    if (split) {
      heads.add(split[0]);
      tails.add(split[1]);
    }
  }
  const headList = [...heads].sort();
  const tailList = [...tails].sort();
  const allSurnames = [...realSurnames];
  const rng = new Rng(VOCAB_SEED);
  for (let attempts = 0; allSurnames.length < SURNAMES && attempts < SURNAMES * 20; attempts++) {
    const name = rng.pick(headList) + rng.pick(tailList);
    if (name.length < 4 || name.length > 15 || surnameSet.has(name)) continue;
    surnameSet.add(name);
    allSurnames.push(name);
  }
  const surnameList = allSurnames.map((s): Surname => {
    const alt = altSpelling(s);
    return { full: table.piece(s, KIND.surname), alt: alt === null ? null : table.piece(alt, KIND.surname) };
  });

  // Feminine forms ("Schriftstellerin") are given to women, not drawn on their own.
  const occRanked = ranked(occupations);
  const occSet = new Set(occRanked);
  const isFeminine = (o: string) => o.endsWith('in') && occSet.has(o.slice(0, -2));
  const occupationList = occRanked.filter((o) => !isFeminine(o));
  const occupationPieces = occupationList.map((o) => table.piece(o, KIND.occupation));
  const femaleOccupations = occupationList.map((o) => (occSet.has(`${o}in`) ? table.piece(`${o}in`, KIND.occupation) : null));

  const known: Person[] = [];
  for (const rec of persons.slice(0, knownCount)) {
    const r = mapEntityFacts(rec);
    if (r.kind === 'person') known.push(r.person);
  }

  const share = (k: number) => k / n;
  const placesBoth = placeShares[0]!;
  return {
    table,
    forenames: forenameList,
    femaleForenames: femaleList,
    surnames: surnameList,
    occupations: occupationPieces,
    femaleOccupations,
    places: ranked(places).map((p) => table.piece(p, KIND.place)),
    particles: ['von', 'von', 'von', 'von', 'de', 'van', 'zu', 'von der'].map((p) => table.piece(p, KIND.other)),
    months: MONTHS.map((m) => table.piece(m, KIND.other)),
    male: table.piece('Mann', KIND.other),
    female: table.piece('Frau', KIND.other),
    proportions: {
      dates: dates.map(share),
      places: placeShares.map(share),
      samePlace: placesBoth === 0 ? 0 : same / placesBoth,
      yearOnly: dateValues === 0 ? 1 : yearOnly / dateValues,
      gender: share(gendered),
      female: gendered === 0 ? 0 : women / gendered,
      variants: share(withVariants),
      noForename: share(noForename),
      particle: share(particle),
    },
    variantCounts: new Discrete(Array.from({ length: variantHist.length }, (_, i) => variantHist[i] ?? 0)),
    occupationCounts: new Discrete(Array.from({ length: occupationHist.length }, (_, i) => occupationHist[i] ?? 0)),
    known,
    realSurnames: realSurnames.length,
  };
}
