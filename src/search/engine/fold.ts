/**
 * Folding of text for matching (docs/decisions.md "Query syntax": case- and
 * diacritic-insensitive, `Wroclaw` finds `Wrocław`). SQLite's unicode61
 * tokenizer removes combining diacritics but keeps letters such as ł, ø, đ,
 * so text is folded here, the same way at load and at query time, before
 * the tokenizer sees it.
 */

/** Letters that are not a base letter plus a combining mark in Unicode. */
const SPECIAL: Record<string, string> = {
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ħ: 'h',
  ı: 'i',
  ŀ: 'l',
  ŧ: 't',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  þ: 'th',
  ĳ: 'ij',
};
const SPECIAL_RE = /[łøđðħıŀŧæœßþĳ]/g;
const MARKS = /\p{M}/gu;

export function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(SPECIAL_RE, (c) => SPECIAL[c] ?? c);
}

const TOKEN = /[\p{L}\p{N}]+/gu;

/** The tokens of a text as the index sees them: runs of letters and digits, folded. */
export function tokens(text: string): string[] {
  return fold(text).match(TOKEN) ?? [];
}

/**
 * The first year in a free-text date ("21. Januar 1878", "1749-08-28",
 * "um 950"): the first run of exactly 3 or 4 digits. Ranges on dates compare
 * these years (docs/decisions.md "Dates").
 */
export function yearOf(text: string | undefined): number | null {
  if (!text) return null;
  const m = /(?<!\d)\d{3,4}(?!\d)/.exec(text);
  return m ? Number(m[0]) : null;
}
