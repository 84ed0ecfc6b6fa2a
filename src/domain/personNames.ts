/**
 * How a person's name and gender are shown, whatever the source
 * (docs/decisions.md "Names in natural order"). The real `/entities` gives `preferredName` in natural order
 * ("Johann Wolfgang von Goethe"), as DNB's EntityFacts does; lobid-gnd carries
 * the GND's inverted form ("Goethe, Johann Wolfgang von"). Gender labels come
 * in two vocabularies (EntityFacts "Mann"/"Frau", lobid-gnd
 * "Männlich"/"Weiblich"/"Unbekannt") for the one GND vocabulary
 * https://d-nb.info/standards/vocab/gnd/gender.
 *
 * Pure and shared: ingest normalises records with it, search normalises
 * filter values with it, so a filter on either label finds both.
 */

/** GND's structured name (lobid-gnd `preferredNameEntityForThePerson`). */
export interface NameParts {
  forename?: readonly string[];
  prefix?: readonly string[];
  surname?: readonly string[];
  personalName?: readonly string[];
}

/**
 * The natural order of a GND preferred name. From the structured parts when
 * the record has them (forename, prefix, surname); a personal name without a
 * surname ("Friedrich II., Preußen, König") stays as written. Without parts,
 * "Surname, Forenames" with exactly one comma is turned round; anything else
 * (two commas, digits after the comma, an empty side) is left alone, because
 * guessing would break names such as rulers' or corporate ones.
 */
export function naturalName(preferredName: string, parts?: NameParts): string {
  const surname = parts?.surname?.join(' ').trim();
  if (surname) {
    const natural = [...(parts?.forename ?? []), ...(parts?.prefix ?? []), surname].join(' ').replace(/\s+/g, ' ').trim();
    return natural || preferredName;
  }
  if (parts?.personalName?.length) return preferredName;
  const comma = preferredName.indexOf(', ');
  if (comma <= 0 || preferredName.indexOf(',', comma + 1) !== -1) return preferredName;
  const rest = preferredName.slice(comma + 2).trim();
  if (rest === '' || /[\d<>()[\]]/.test(rest)) return preferredName;
  return `${rest} ${preferredName.slice(0, comma).trim()}`;
}

/** The labels we store, one per term of the GND gender vocabulary. */
export const GENDER_LABELS = { male: 'Mann', female: 'Frau', notKnown: 'Unbekannt' } as const;

const BY_LABEL: Record<string, string> = {
  mann: GENDER_LABELS.male,
  männlich: GENDER_LABELS.male,
  male: GENDER_LABELS.male,
  frau: GENDER_LABELS.female,
  weiblich: GENDER_LABELS.female,
  female: GENDER_LABELS.female,
  unbekannt: GENDER_LABELS.notKnown,
  'not known': GENDER_LABELS.notKnown,
  notknown: GENDER_LABELS.notKnown,
};

/**
 * One label for a gender given by its vocabulary URI (…/gender#male) or a
 * label of either vocabulary; other values are kept as given.
 */
export function normaliseGender(label: string, uri?: string): string {
  const term = uri ? /gender#(male|female|notKnown)$/i.exec(uri)?.[1] : undefined;
  if (term) {
    const key = term.toLowerCase() === 'notknown' ? 'notKnown' : (term.toLowerCase() as 'male' | 'female');
    return GENDER_LABELS[key];
  }
  return BY_LABEL[label.trim().toLowerCase()] ?? label;
}
