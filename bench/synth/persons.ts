/**
 * Synthetic persons in this service's own entity shape (spec 2.1 plus gender,
 * src/ingest/persons/person.ts). Person i is a pure function of (seed, i):
 * the item generator can name the persons it refers to without keeping them.
 * Persons 0..known-1 are fixed real records (from fixtures/) with synthetic ids,
 * the same for every seed.
 */
import type { Person } from '../../src/domain/person.js';
import { Rng, Zipf } from './rng.js';
import type { Forename, Piece, Surname, Vocab } from './vocab.js';

/** Zipf exponent of every vocabulary (real vocabularies have skewed, Zipf-like frequencies). */
export const ZIPF_S = 1.1;
/**
 * Zipf–Mandelbrot offsets: occupations and places plain Zipf (the top occupation is
 * ~20 % of all occupation values, as "Schriftsteller" is in the real file); names
 * flattened so that the most common forename is ~1.6 % and surname ~0.5 % of all drawn names.
 */
const Q = { occupation: 0, place: 0, forename: 20, surname: 30 } as const;

const STREAM_PERSON = 1;

/** GND-style number with a mod-11 check character: 1 + 8 digits + check (0-9 or X). */
export function personId(index: number): string {
  const body = `1${String(index + 1).padStart(8, '0')}`;
  let sum = 0;
  for (let k = 0; k < body.length; k++) sum += Number(body[body.length - 1 - k]) * (k + 2);
  const check = (11 - (sum % 11)) % 11;
  return `http://d-nb.info/gnd/${body}${check === 10 ? 'X' : String(check)}`;
}

export class PersonGenerator {
  private readonly forenameZipf: Zipf;
  private readonly femaleZipf: Zipf;
  private readonly surnameZipf: Zipf;
  private readonly occupationZipf: Zipf;
  private readonly placeZipf: Zipf;
  private readonly knownPieces: Piece[][];

  constructor(
    readonly vocab: Vocab,
    readonly seed: number,
  ) {
    this.forenameZipf = new Zipf(vocab.forenames.length, ZIPF_S, Q.forename);
    this.femaleZipf = new Zipf(vocab.femaleForenames.length, ZIPF_S, Q.forename);
    this.surnameZipf = new Zipf(vocab.surnames.length, ZIPF_S, Q.surname);
    this.occupationZipf = new Zipf(vocab.occupations.length, ZIPF_S, Q.occupation);
    this.placeZipf = new Zipf(vocab.places.length, ZIPF_S, Q.place);
    // Known persons' words are not marked as vocabulary words (kind 0): the benchmark's terms come from drawn persons.
    this.knownPieces = vocab.known.map((p) => textValues(p).map((t) => vocab.table.piece(t, 0)));
    // Every token a person can have is interned now, so the table does not grow while counting.
    for (let y = 1400; y <= 2100; y++) vocab.table.cached(String(y));
    for (let d = 1; d <= 31; d++) vocab.table.cached(String(d));
  }

  get knownCount(): number {
    return this.vocab.known.length;
  }

  /**
   * Person `index`. When `used` is given, the token ids of all its indexed text are
   * pushed onto it (with repeats), for exact term hit counts.
   */
  person(index: number, used?: number[]): Person {
    const known = this.vocab.known[index];
    if (known !== undefined) {
      if (used) for (const p of this.knownPieces[index]!) used.push(...p.tokens);
      return { ...known, id: personId(index) };
    }
    const v = this.vocab;
    const pr = v.proportions;
    const rng = Rng.for(this.seed, STREAM_PERSON, index);
    const take = (p: Piece): string => {
      if (used) for (const t of p.tokens) used.push(t);
      return p.text;
    };

    const hasGender = rng.chance(pr.gender);
    const female = rng.chance(pr.female) && v.femaleForenames.length > 0;
    const forename: Forename | null = rng.chance(pr.noForename)
      ? null
      : female
        ? v.femaleForenames[this.femaleZipf.sample(rng)]!
        : v.forenames[this.forenameZipf.sample(rng)]!;
    const surname = v.surnames[this.surnameZipf.sample(rng)]!;
    const particle = rng.chance(pr.particle) ? rng.pick(v.particles) : null;

    const nameParts: string[] = [];
    if (forename) nameParts.push(take(forename.full));
    if (particle) nameParts.push(take(particle));
    nameParts.push(take(surname.full));
    const preferredName = nameParts.join(' ');

    const variantName = rng.chance(pr.variants)
      ? this.variants(rng, preferredName, forename, particle, surname, v.variantCounts.sample(rng), take)
      : [];
    const person: Person = { id: personId(index), type: 'person', preferredName, variantName };

    const dates = pickShare(rng, pr.dates);
    if (dates <= 1) {
      const birth = birthYear(rng);
      person.dateOfBirth = this.date(rng, birth, take);
      if (dates === 0) {
        const death = birth + 20 + Math.floor((80 * (rng.next() + rng.next() + rng.next())) / 3);
        if (death <= 2014) person.dateOfDeath = this.date(rng, death, take);
      }
    } else if (dates === 2) {
      person.dateOfDeath = this.date(rng, birthYear(rng) + 60, take);
    }

    const places = pickShare(rng, pr.places);
    if (places <= 1) {
      const birthPlace = v.places[this.placeZipf.sample(rng)]!;
      person.placeOfBirth = [take(birthPlace)];
      if (places === 0) {
        person.placeOfDeath = [take(rng.chance(pr.samePlace) ? birthPlace : v.places[this.placeZipf.sample(rng)]!)];
      }
    } else if (places === 2) {
      person.placeOfDeath = [take(v.places[this.placeZipf.sample(rng)]!)];
    }

    const occupations = v.occupationCounts.sample(rng);
    if (occupations > 0) {
      const chosen = new Set<number>();
      for (let attempt = 0; chosen.size < occupations && attempt < occupations * 4; attempt++) chosen.add(this.occupationZipf.sample(rng));
      person.professionOrOccupation = [...chosen].map((o) => take((female ? v.femaleOccupations[o] : null) ?? v.occupations[o]!));
    }

    if (hasGender) person.gender = [take(female ? v.female : v.male)];
    return person;
  }

  /** Variant names as the GND has them: initials, inverted, other spellings, without particle, pseudonyms. */
  private variants(
    rng: Rng,
    preferredName: string,
    forename: Forename | null,
    particle: Piece | null,
    surname: Surname,
    count: number,
    take: (p: Piece) => string,
  ): string[] {
    const out: string[] = [];
    const seen = new Set<string>([preferredName]);
    const join = (...parts: Array<Piece | null>) =>
      parts
        .filter((p): p is Piece => p !== null)
        .map(take)
        .join(' ');
    const alt = surname.alt;
    const forms: Array<() => string> = [() => join(surname.full)];
    if (forename === null) {
      if (particle !== null) forms.push(() => join(particle, surname.full));
      if (alt !== null) forms.push(() => join(alt));
    } else {
      forms.push(
        () => join(forename.initials, particle, surname.full),
        () => join(forename.first, particle, surname.full),
        () => `${take(surname.full)}, ${join(forename.full, particle)}`,
        () => join(forename.full, surname.full),
        () => join(forename.initials, surname.full),
      );
      if (alt !== null) {
        forms.push(
          () => join(forename.full, particle, alt),
          () => join(forename.initials, particle, alt),
          () => `${take(alt)}, ${join(forename.full, particle)}`,
          () => join(forename.first, alt),
        );
      }
    }
    // Mostly forms of the same name; pseudonyms now and then, and once the forms run out.
    for (let attempt = 0; out.length < count && attempt < count * 3 + 3; attempt++) {
      const name = attempt < forms.length * 2 && !rng.chance(0.12) ? rng.pick(forms)() : this.pseudonym(rng, take);
      if (!seen.has(name)) {
        seen.add(name);
        out.push(name);
      }
    }
    return out;
  }

  private pseudonym(rng: Rng, take: (p: Piece) => string): string {
    const f = this.vocab.forenames[this.forenameZipf.sample(rng)]!;
    const s = this.vocab.surnames[this.surnameZipf.sample(rng)]!;
    return `${take(f.full)} ${take(s.full)}`;
  }

  private date(rng: Rng, year: number, take: (p: Piece) => string): string {
    const table = this.vocab.table;
    const y = take(table.cached(String(year)));
    if (rng.chance(this.vocab.proportions.yearOnly)) return y;
    const month = rng.int(12);
    const day = rng.between(1, month === 1 ? 28 : 30);
    return `${take(table.cached(String(day)))}. ${take(this.vocab.months[month]!)} ${y}`;
  }
}

/** Index of the share that a uniform draw falls into. */
function pickShare(rng: Rng, shares: readonly number[]): number {
  let u = rng.next();
  for (let i = 0; i < shares.length; i++) {
    u -= shares[i]!;
    if (u < 0) return i;
  }
  return shares.length - 1;
}

/** Birth years: most persons of the 19th and early 20th century, as in the real file (and the GND). */
function birthYear(rng: Rng): number {
  const u = rng.next();
  if (u < 0.06) return rng.between(1450, 1749);
  if (u < 0.26) return rng.between(1750, 1849);
  if (u < 0.88) return rng.between(1850, 1929);
  return rng.between(1930, 1995);
}

/** The indexed text values of a person (the text fields of src/search/engine/schema.ts personSchema). */
export function textValues(p: Person): string[] {
  return [
    p.preferredName,
    ...p.variantName,
    p.dateOfBirth ?? '',
    p.dateOfDeath ?? '',
    ...(p.placeOfBirth ?? []),
    ...(p.placeOfDeath ?? []),
    ...(p.professionOrOccupation ?? []),
    ...(p.gender ?? []),
  ].filter((t) => t !== '');
}

/** One JSON line in the service's own entity shape, keys in spec order. */
export function personLine(p: Person): string {
  return JSON.stringify({
    id: p.id,
    type: p.type,
    preferredName: p.preferredName,
    variantName: p.variantName,
    dateOfBirth: p.dateOfBirth,
    dateOfDeath: p.dateOfDeath,
    placeOfBirth: p.placeOfBirth,
    placeOfDeath: p.placeOfDeath,
    professionOrOccupation: p.professionOrOccupation,
    gender: p.gender,
  });
}
