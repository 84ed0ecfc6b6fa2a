/**
 * The DDB sector of an institution read from its name, the last source of an item's
 * `sector_fct` (docs/edm-mapping.md "indexing-profile"): a Europeana record names its data
 * provider by a literal alone ("Germanisches Nationalmuseum", "National and University
 * Library of Slovenia"), with no Agent whose type names the sector, and an operator's
 * providers file may not list it. The name's word for the kind of institution (German
 * compounds included: "Stadtarchiv", "Universitätsbibliothek") then gives the sector;
 * a name without one (an "Institute", a "Stiftung") gives none rather than a guess.
 * Only the data provider's name is read, never an aggregator's (the DDB aggregates
 * museums and archives although its name says library).
 */

/** Word stems per sector code, in several European languages, matched inside words and without case. */
const KINDS: ReadonlyArray<{ code: string; pattern: RegExp }> = [
  { code: 'sec_01', pattern: /archiv|archief|arkiv|archiwum/iu },
  { code: 'sec_02', pattern: /bibliot[hek]|library|libraries|bücherei|knihovn|knjižnic|könyvtár/iu },
  { code: 'sec_03', pattern: /denkmalpflege|denkmalamt|denkmalschutz/iu },
  { code: 'sec_04', pattern: /forschung|research/iu },
  { code: 'sec_05', pattern: /mediathe[kq]|médiathèque|mediateca/iu },
  { code: 'sec_06', pattern: /muse(?:um|en|o|u|et|ums)|musée|muzeum|muzej|pinakothek|glyptothek/iu },
];

/**
 * The sector code whose word comes first in `name` ("Bibliothek des Museums" is a library),
 * or "" when the name names no kind of institution.
 */
export function sectorOfName(name: string): string {
  let best = '';
  let at = Infinity;
  for (const { code, pattern } of KINDS) {
    const m = pattern.exec(name);
    if (m !== null && m.index < at) {
      at = m.index;
      best = code;
    }
  }
  return best;
}
