/**
 * The synthetic documents of the engine benchmark (bench/engine.ts, bench/engineMemory.ts):
 * items with Zipf-distributed words and persons, each a pure function of its number.
 */
import { Rng } from './synth/rng.js';
import type { SearchDocument } from '../src/search/engine/types.js';

export const VOCAB = 300_000;
const LETTERS = 'abcdefghijklmnopqrstuvwxyzäöüß';

/** A pronounceable-ish distinct word per rank. */
export function word(rank: number): string {
  let s = '';
  let x = rank + 1;
  while (x > 0) {
    s += LETTERS[x % LETTERS.length];
    x = Math.floor(x / LETTERS.length);
  }
  return `${s}${LETTERS[(rank * 7) % 26]}${LETTERS[(rank * 13) % 26]}`;
}

/** Rank with probability ~ 1/rank (Zipf, s = 1) over [0, v). */
function zipf(r: Rng, v: number): number {
  return Math.min(v - 1, Math.floor(Math.exp(r.next() * Math.log(v + 1))) - 1);
}

function words(r: Rng, min: number, max: number): string {
  const n = min + Math.floor(r.next() * (max - min + 1));
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(word(zipf(r, VOCAB)));
  return out.join(' ');
}

function pick(r: Rng, prefix: string, n: number): string {
  return `${prefix}${zipf(r, n)}`;
}

export function itemDoc(i: number): SearchDocument {
  const r = Rng.for(7, 1, i);
  const title = words(r, 2, 6);
  const places = Array.from({ length: Math.floor(r.next() * 3) }, () => pick(r, 'Ort ', 5000));
  const affiliates = Array.from({ length: Math.floor(r.next() * 3) }, () => pick(r, 'Person ', 50_000));
  const keywords = Array.from({ length: 1 + Math.floor(r.next() * 3) }, () => word(zipf(r, 2000)));
  const provider = pick(r, 'Museum ', 500);
  const begin = r.next() < 0.7 ? 600_000 + Math.floor(r.next() * 150_000) : null;
  return {
    id: `ITEM${String(i).padStart(28, '0')}`,
    text: {
      title: [title],
      subtitle: r.next() < 0.5 ? [words(r, 1, 3)] : [],
      description: r.next() < 0.6 ? [words(r, 10, 40)] : [],
      keywords,
      place: places,
      affiliate: affiliates,
      provider: [provider],
    },
    facets: {
      time_fct: begin === null ? [] : [`time_${Math.floor(begin / 365)}`],
      place_fct: places,
      affiliate_fct: affiliates,
      keywords_fct: keywords,
      language_fct: [pick(r, 'lang_', 20)],
      type_fct: [pick(r, 'mediatype_00', 8)],
      sector_fct: [pick(r, 'sec_0', 9)],
      provider_fct: [provider],
      has_media_fct: [r.next() < 0.6 ? 'true' : 'false'],
    },
    numbers: { begin_time: begin, end_time: begin === null ? null : begin + 365 },
    sort: { title, begin_time: begin },
  };
}

export function personDoc(i: number): SearchDocument {
  const r = Rng.for(7, 2, i);
  const name = `${word(zipf(r, 20_000))}, ${word(zipf(r, 5000))}`;
  const born = r.next() < 0.8 ? 1400 + Math.floor(r.next() * 600) : null;
  const died = born !== null && r.next() < 0.8 ? born + 20 + Math.floor(r.next() * 70) : null;
  const place = pick(r, 'Ort ', 5000);
  const occupation = word(zipf(r, 3000));
  // The stored vocabulary (src/search/schemas/personFields.ts), which the entity rows filter on.
  const gender = r.next() < 0.5 ? 'Mann' : 'Frau';
  const count = Math.floor(1 / (r.next() + 0.001));
  return {
    id: `http://d-nb.info/gnd/${100_000_000 + i}`,
    text: {
      preferredName: [name],
      variantName: r.next() < 0.3 ? [words(r, 2, 3)] : [],
      professionOrOccupation: [occupation],
      placeOfBirth: [place],
      placeOfDeath: r.next() < 0.5 ? [place] : [],
      dateOfBirth: born === null ? [] : [String(born)],
      dateOfDeath: died === null ? [] : [String(died)],
      gender: [gender],
    },
    facets: { person_name_fct: [name], person_place_fct: [place], person_gender_fct: [gender], person_occupation_fct: [occupation] },
    numbers: { dateOfBirth: born, dateOfDeath: died, count },
    sort: { preferredName: name, count },
  };
}
