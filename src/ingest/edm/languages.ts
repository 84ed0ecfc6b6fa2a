/**
 * Language values of the `language_fct` facet (spec 2.4): the DDB writes
 * ISO 639-2 bibliographic codes (`ger`, `eng`, `fre`, `lat`, ...), while EDM
 * records carry dc:language as ISO 639-1 (`de`), ISO 639-2 terminology codes
 * (`deu`, `fra`), language tags (`de-DE`), names (`Deutsch`, `German`) or a
 * reference to a code list (http://id.loc.gov/vocabulary/iso639-2/ger,
 * http://lexvo.org/id/iso639-3/deu). This normalises the common ones.
 * A value we cannot place is kept as written (lowercased), so nothing is lost.
 */

/** ISO 639-1 -> ISO 639-2/B, for the languages of European and major world collections. */
const FROM_639_1: Readonly<Record<string, string>> = {
  ar: 'ara',
  be: 'bel',
  bg: 'bul',
  br: 'bre',
  bs: 'bos',
  ca: 'cat',
  cs: 'cze',
  cy: 'wel',
  da: 'dan',
  de: 'ger',
  el: 'gre',
  en: 'eng',
  eo: 'epo',
  es: 'spa',
  et: 'est',
  eu: 'baq',
  fa: 'per',
  fi: 'fin',
  fr: 'fre',
  fy: 'fry',
  ga: 'gle',
  gd: 'gla',
  gl: 'glg',
  he: 'heb',
  hi: 'hin',
  hr: 'hrv',
  hu: 'hun',
  hy: 'arm',
  is: 'ice',
  it: 'ita',
  ja: 'jpn',
  ka: 'geo',
  ko: 'kor',
  la: 'lat',
  lb: 'ltz',
  lt: 'lit',
  lv: 'lav',
  mk: 'mac',
  mt: 'mlt',
  nl: 'dut',
  no: 'nor',
  nb: 'nob',
  nn: 'nno',
  oc: 'oci',
  pl: 'pol',
  pt: 'por',
  rm: 'roh',
  ro: 'rum',
  ru: 'rus',
  sk: 'slo',
  sl: 'slv',
  sq: 'alb',
  sr: 'srp',
  sv: 'swe',
  tr: 'tur',
  uk: 'ukr',
  yi: 'yid',
  zh: 'chi',
};

/** ISO 639-2/T -> /B where they differ (ISO 639-2 lists exactly these 20). */
const T_TO_B: Readonly<Record<string, string>> = {
  sqi: 'alb',
  hye: 'arm',
  eus: 'baq',
  mya: 'bur',
  zho: 'chi',
  ces: 'cze',
  nld: 'dut',
  fra: 'fre',
  kat: 'geo',
  deu: 'ger',
  ell: 'gre',
  isl: 'ice',
  mkd: 'mac',
  mri: 'mao',
  msa: 'may',
  fas: 'per',
  ron: 'rum',
  slk: 'slo',
  bod: 'tib',
  cym: 'wel',
};

/** Names as they appear in records (German and English), lowercased. */
const NAMES: Readonly<Record<string, string>> = {
  deutsch: 'ger',
  german: 'ger',
  englisch: 'eng',
  english: 'eng',
  französisch: 'fre',
  french: 'fre',
  latein: 'lat',
  latin: 'lat',
  italienisch: 'ita',
  italian: 'ita',
  spanisch: 'spa',
  spanish: 'spa',
  niederländisch: 'dut',
  dutch: 'dut',
  russisch: 'rus',
  russian: 'rus',
  polnisch: 'pol',
  polish: 'pol',
  tschechisch: 'cze',
  czech: 'cze',
  griechisch: 'gre',
  greek: 'gre',
  altgriechisch: 'grc',
  'ancient greek': 'grc',
  hebräisch: 'heb',
  hebrew: 'heb',
  dänisch: 'dan',
  danish: 'dan',
  schwedisch: 'swe',
  swedish: 'swe',
  ungarisch: 'hun',
  hungarian: 'hun',
  portugiesisch: 'por',
  portuguese: 'por',
  slowenisch: 'slv',
  slovenian: 'slv',
  kroatisch: 'hrv',
  croatian: 'hrv',
  finnisch: 'fin',
  finnish: 'fin',
  norwegisch: 'nor',
  norwegian: 'nor',
  arabisch: 'ara',
  arabic: 'ara',
};

/** The ISO 639-2/B code for a dc:language value (literal or URI), or the value itself. */
export function languageCode(value: string): string {
  let v = value.trim();
  // A reference to a code list: its last path segment is the code.
  if (/^https?:\/\//i.test(v))
    v =
      v
        .replace(/[/#]+$/, '')
        .split(/[/#]/)
        .pop() ?? v;
  const lower = v.toLowerCase();
  if (Object.hasOwn(NAMES, lower)) return NAMES[lower] as string;
  const primary = lower.split(/[-_]/)[0] ?? lower; // language tag: the language subtag
  if (Object.hasOwn(FROM_639_1, primary)) return FROM_639_1[primary] as string;
  if (Object.hasOwn(T_TO_B, primary)) return T_TO_B[primary] as string;
  if (/^[a-z]{3}$/.test(primary)) return primary;
  return lower;
}
