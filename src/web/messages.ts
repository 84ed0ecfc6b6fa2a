/**
 * The pages' words in German and English (docs/pages.md "Language"). A page's language comes from
 * `?lang=` (the switch link), else the Accept-Language header (RFC 9110 section 12.5.4),
 * else German, the language of the DDB's own portal and of most records.
 */
import { ITEM_DE, ITEM_EN } from './itemMessages.js';
import { EXPLORE_DE, EXPLORE_EN } from './exploreMessages.js';

export type Lang = 'de' | 'en';
export const LANGS: readonly Lang[] = ['de', 'en'];

const de = {
  siteName: 'Sammlung',
  skip: 'Zum Inhalt springen',
  mainNav: 'Hauptnavigation',
  home: 'Start',
  searchLabel: 'Suche in Objekten und Personen',
  searchButton: 'Suchen',
  searchPlaceholder: 'z. B. Goethe, Geige, Combat',
  otherLanguage: 'English',
  otherLanguageName: 'Switch to English',
  intro: 'Durchsuchen und lesen Sie, was diese Sammlung enthält: Objekte, ihre Hierarchien und die Personen, auf die sie verweisen.',
  items: 'Objekte',
  persons: 'Personen',
  providers: 'Institutionen',
  counts: 'Bestand',
  sectors: 'Sparten',
  mediaTypes: 'Medientypen',
  freshness: 'Aktualität der Daten',
  lastLoad: 'Letzte Ladung',
  lastHarvest: 'Letzte Ernte',
  never: 'noch nie',
  records: 'Datensätze',
  api: 'Für Programme',
  apiDocs: 'API-Dokumentation',
  results: 'Ergebnisse',
  resultsFor: 'Ergebnisse für „{q}“',
  allItems: 'Alle Objekte',
  noResults: 'Keine Objekte gefunden.',
  filters: 'Filter',
  activeFilters: 'Aktive Filter',
  removeFilter: 'Filter entfernen',
  removeAll: 'Alle Filter entfernen',
  sort: 'Sortierung',
  sortApply: 'Sortieren',
  sortRelevance: 'Relevanz',
  sortTitleAsc: 'Titel A–Z',
  sortTitleDesc: 'Titel Z–A',
  sortOldest: 'Älteste zuerst',
  sortNewest: 'Neueste zuerst',
  pages: 'Seiten',
  previous: 'Zurück',
  next: 'Weiter',
  pageOf: 'Seite {page} von {pages}',
  showing: '{from}–{to} von {total}',
  matchingPersons: 'Passende Personen',
  morePersons: 'Weitere Personen',
  noThumbnail: 'Kein Vorschaubild',
  provider: 'Institution',
  license: 'Lizenz',
  rights: 'Rechte',
  media: 'Medien',
  details: 'Angaben',
  breadcrumb: 'Hierarchie',
  children: 'Enthält',
  childrenCount: '{total} Teile',
  hierarchy: 'Hierarchie durchblättern',
  tree: 'Baum der Sammlung',
  parts: 'Teile',
  dataFormats: 'Daten dieses Objekts',
  apiKeyNote:
    'Die API antwortet in JSON oder XML, je nach Accept-Header (ein Browser bekommt XML), und braucht einen API-Schlüssel, wenn der Betreiber sie nicht frei gibt.',
  apiPackage: 'Paket (JSON, XML)',
  apiAip: 'Archivpaket (AIP, XML, JSON)',
  apiIiif: 'IIIF-Manifest',
  apiParents: 'Hierarchie (parents)',
  original: 'Beim Datengeber ansehen',
  born: 'Geboren',
  died: 'Gestorben',
  occupations: 'Berufe',
  variantNames: 'Andere Namensformen',
  gender: 'Geschlecht',
  gndLink: 'Eintrag in der GND',
  itemsAbout: 'Objekte zu dieser Person',
  allItemsAbout: 'Alle {count} Objekte zu dieser Person',
  noItemsAbout: 'Keine Objekte verweisen auf diese Person.',
  notFound: 'Nicht gefunden',
  itemNotFound: 'Es gibt kein Objekt mit der Kennung {id}.',
  personNotFound: 'Es gibt keine Person mit der GND-Nummer {id}.',
  badRequest: 'Die Anfrage ist so nicht möglich',
  unavailable: 'Gerade nicht möglich',
  blocked: 'Dieses Objekt ist gesperrt.',
  tryAgain: 'Bitte versuchen Sie es gleich noch einmal oder engen Sie die Suche ein.',
  tooManyPages: 'Zu viele Seitenaufrufe von dieser Adresse. Bitte versuchen Sie es in {seconds} Sekunden noch einmal.',
  backHome: 'Zur Startseite',
  image: 'Bild',
  download: 'Datei',
  openImage: 'Bild öffnen',
  notHere: 'hier nicht verfügbar',
  unknownType: 'Typ unbekannt',
  open: 'öffnen',
  level: 'Ebene',
  current: 'aktuelles Objekt',
  sector_fct: 'Sparte',
  type_fct: 'Medientyp',
  provider_fct: 'Institution',
  place_fct: 'Ort',
  affiliate_fct: 'Person',
  affiliate_fct_normdata: 'Person (GND)',
  keywords_fct: 'Schlagwort',
  language_fct: 'Sprache',
  time_fct: 'Zeit',
  objecttype_fct: 'Objekttyp',
  has_media_fct: 'Mit Medien',
  license_group: 'Nachnutzung',
  geocode: 'Ort (Koordinaten)',
  reusable: 'Nur frei nachnutzbare',
  reusableHint: 'Medien ohne Bedingungen oder mit einfachen Bedingungen (Creative Commons) weiterverwendbar',
  places: 'Orte',
  placesFor: 'Orte für „{q}“',
  placesLink: 'Orte dieser Suche',
  placesIntro: 'Die Orte der Objekte, die die Suche findet ({total} Objekte), mit der Zahl der Objekte an jedem Ort.',
  placesAround: 'Um {point}: die nächsten zuerst, mit ihrer Entfernung.',
  placesWithin: 'Im Umkreis von {km} km um {point}: die nächsten zuerst, mit ihrer Entfernung.',
  noPlaces: 'Keines der gefundenen Objekte hat Koordinaten.',
  placeName: 'Ort',
  coordinates: 'Koordinaten',
  itemCount: 'Objekte',
  distance: 'Entfernung',
  kilometres: '{km} km',
  aroundHere: 'Orte in der Nähe',
  pointLabel: 'Punkt (Breite, Länge)',
  distanceLabel: 'Umkreis in km',
  showPlaces: 'Orte zeigen',
  badPoint:
    'Der Punkt pt muss Breite,Länge in Dezimalgrad sein, die Breite von -90 bis 90 und die Länge von -180 bis 180, etwa pt=52.52,13.405.',
  badDistance: 'Der Umkreis d muss eine Zahl von Kilometern von 0 bis 20038 sein, etwa d=25.',
  loadedAt: '{records} Datensätze, {date}',
  footer: 'Diese Seiten zeigen die Daten, die der Betreiber geladen hat.',
  homeDescription: 'Durchsuchen Sie {items} Objekte und {persons} Personen: Bilder, Hierarchien, Orte und Zeiträume.',
  resultsDescription: '{total} Objekte zu „{q}“ in dieser Sammlung.',
  allResultsDescription: 'Alle {total} Objekte dieser Sammlung, nach Institution, Sparte, Ort und Zeit zu filtern.',
  treeDescription: 'Die Hierarchie von „{title}“: die Objekte darüber und darunter.',
  queryTooLong: 'Die Suchwörter sind länger als {max} Zeichen; gesucht wurde mit den ersten {max}. Kürzen Sie sie.',
  unknownFilter: 'Den Filter „{filter}“ kennen diese Seiten nicht: schreiben Sie f=<Facette>:<Wert>, die Facette eine von {facets}.',
  tooManyFilters: 'Höchstens {max} Filter werden verwendet; die übrigen wurden weggelassen.',
  unknownSort: 'Die Sortierung „{sort}“ gibt es nicht: schreiben Sie sort= und eine von {sorts}.',
  badPage: 'Die Seite „{page}“ gibt es nicht, nur 1 bis {max}; engen Sie die Suche ein, um weiter zu sehen.',
  ...ITEM_DE,
  ...EXPLORE_DE,
};

export type Messages = typeof de;

const en: Messages = {
  siteName: 'Collection',
  skip: 'Skip to content',
  mainNav: 'Main navigation',
  home: 'Home',
  searchLabel: 'Search items and persons',
  searchButton: 'Search',
  searchPlaceholder: 'e.g. Goethe, violin, Combat',
  otherLanguage: 'Deutsch',
  otherLanguageName: 'Auf Deutsch lesen',
  intro: 'Search and read what this collection holds: items, their hierarchies and the persons they refer to.',
  items: 'Items',
  persons: 'Persons',
  providers: 'Institutions',
  counts: 'Holdings',
  sectors: 'Sectors',
  mediaTypes: 'Media types',
  freshness: 'How fresh the data is',
  lastLoad: 'Last load',
  lastHarvest: 'Last harvest',
  never: 'never',
  records: 'records',
  api: 'For programs',
  apiDocs: 'API documentation',
  results: 'Results',
  resultsFor: 'Results for “{q}”',
  allItems: 'All items',
  noResults: 'No items found.',
  filters: 'Filters',
  activeFilters: 'Active filters',
  removeFilter: 'Remove filter',
  removeAll: 'Remove all filters',
  sort: 'Sort by',
  sortApply: 'Sort',
  sortRelevance: 'Relevance',
  sortTitleAsc: 'Title A–Z',
  sortTitleDesc: 'Title Z–A',
  sortOldest: 'Oldest first',
  sortNewest: 'Newest first',
  pages: 'Pages',
  previous: 'Previous',
  next: 'Next',
  pageOf: 'Page {page} of {pages}',
  showing: '{from}–{to} of {total}',
  matchingPersons: 'Matching persons',
  morePersons: 'More persons',
  noThumbnail: 'No preview image',
  provider: 'Institution',
  license: 'License',
  rights: 'Rights',
  media: 'Media',
  details: 'Details',
  breadcrumb: 'Hierarchy',
  children: 'Contains',
  childrenCount: '{total} parts',
  hierarchy: 'Browse the hierarchy',
  tree: 'Tree of the collection',
  parts: 'Parts',
  dataFormats: 'Data of this item',
  apiKeyNote:
    'The API answers JSON or XML by the Accept header (a browser gets XML), and needs an API key unless the operator opened it to every reader.',
  apiPackage: 'Package (JSON, XML)',
  apiAip: 'Archival package (AIP, XML, JSON)',
  apiIiif: 'IIIF manifest',
  apiParents: 'Hierarchy (parents)',
  original: 'View at the provider',
  born: 'Born',
  died: 'Died',
  occupations: 'Occupations',
  variantNames: 'Other forms of the name',
  gender: 'Gender',
  gndLink: 'Entry in the GND',
  itemsAbout: 'Items about this person',
  allItemsAbout: 'All {count} items about this person',
  noItemsAbout: 'No item refers to this person.',
  notFound: 'Not found',
  itemNotFound: 'There is no item with the id {id}.',
  personNotFound: 'There is no person with the GND number {id}.',
  badRequest: 'This request cannot be answered as asked',
  unavailable: 'Not possible right now',
  blocked: 'This item is blocked.',
  tryAgain: 'Please try again in a moment, or narrow the search.',
  tooManyPages: 'Too many page requests from this address. Please try again in {seconds} seconds.',
  backHome: 'Back to the home page',
  image: 'Image',
  download: 'File',
  openImage: 'Open the image',
  notHere: 'not available here',
  unknownType: 'type unknown',
  open: 'open',
  level: 'Level',
  current: 'current item',
  sector_fct: 'Sector',
  type_fct: 'Media type',
  provider_fct: 'Institution',
  place_fct: 'Place',
  affiliate_fct: 'Person',
  affiliate_fct_normdata: 'Person (GND)',
  keywords_fct: 'Keyword',
  language_fct: 'Language',
  time_fct: 'Time',
  objecttype_fct: 'Object type',
  has_media_fct: 'With media',
  license_group: 'Reuse',
  geocode: 'Place (coordinates)',
  reusable: 'Reusable only',
  reusableHint: 'Media reusable without conditions or on simple conditions (Creative Commons)',
  places: 'Places',
  placesFor: 'Places for “{q}”',
  placesLink: 'Places of this search',
  placesIntro: 'The places of the items the search finds ({total} items), with the number of items at each.',
  placesAround: 'Around {point}: the nearest first, with their distance.',
  placesWithin: 'Within {km} km of {point}: the nearest first, with their distance.',
  noPlaces: 'None of the items found has coordinates.',
  placeName: 'Place',
  coordinates: 'Coordinates',
  itemCount: 'Items',
  distance: 'Distance',
  kilometres: '{km} km',
  aroundHere: 'Places nearby',
  pointLabel: 'Point (latitude, longitude)',
  distanceLabel: 'Radius in km',
  showPlaces: 'Show places',
  badPoint:
    'The point pt must be latitude,longitude in decimal degrees, latitude from -90 to 90 and longitude from -180 to 180, e.g. pt=52.52,13.405.',
  badDistance: 'The radius d must be a number of kilometres from 0 to 20038, e.g. d=25.',
  loadedAt: '{records} records, {date}',
  footer: 'These pages show the data the operator loaded.',
  homeDescription: 'Search {items} items and {persons} persons: pictures, hierarchies, places and periods.',
  resultsDescription: '{total} items for “{q}” in this collection.',
  allResultsDescription: 'All {total} items of this collection, to filter by institution, sector, place and time.',
  treeDescription: 'The hierarchy of “{title}”: the items above and below it.',
  queryTooLong: 'The search words are longer than {max} characters; the first {max} were searched for. Shorten them.',
  unknownFilter: 'The filter “{filter}” is not one these pages know: write f=<facet>:<value>, the facet one of {facets}.',
  tooManyFilters: 'At most {max} filters are used; the others were left out.',
  unknownSort: 'The order “{sort}” is not known: write sort= and one of {sorts}.',
  badPage: 'The page “{page}” is not one of 1 to {max}; narrow the search to see further.',
  ...ITEM_EN,
  ...EXPLORE_EN,
};

export const MESSAGES: Readonly<Record<Lang, Messages>> = { de, en };

/** `{name}` placeholders filled in; the result is text, escaped by the template like any other. */
export function format(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{([a-z]+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** The DDB sector vocabulary (http://ddb.vocnet.org/sparte/, src/ingest/edm/providers.ts). */
const SECTORS: Readonly<Record<string, Readonly<Record<Lang, string>>>> = {
  sec_01: { de: 'Archiv', en: 'Archive' },
  sec_02: { de: 'Bibliothek', en: 'Library' },
  sec_03: { de: 'Denkmalpflege', en: 'Monument protection' },
  sec_04: { de: 'Forschung', en: 'Research' },
  sec_05: { de: 'Mediathek', en: 'Media library' },
  sec_06: { de: 'Museum', en: 'Museum' },
  sec_07: { de: 'Sonstige', en: 'Other' },
};

/** The DDB media type vocabulary (http://ddb.vocnet.org/medientyp/, src/domain/mediaTypes.ts). */
const MEDIA_TYPES: Readonly<Record<string, Readonly<Record<Lang, string>>>> = {
  mediatype_001: { de: 'Audio', en: 'Audio' },
  mediatype_002: { de: 'Bild', en: 'Image' },
  mediatype_003: { de: 'Text', en: 'Text' },
  mediatype_004: { de: 'Volltext', en: 'Full text' },
  mediatype_005: { de: 'Video', en: 'Video' },
  mediatype_006: { de: 'Sonstiges', en: 'Other' },
  mediatype_007: { de: 'Ohne Medientyp', en: 'No media type' },
  mediatype_008: { de: 'Institution', en: 'Institution' },
};

/** The DDB's licence groups (src/domain/licenseGroups.ts), as its page on reusing search results names them. */
const LICENSE_GROUP_LABELS: Readonly<Record<string, Readonly<Record<Lang, string>>>> = {
  rights_001: { de: 'Weiterverwendung ohne Bedingungen – frei', en: 'Reuse without conditions – free' },
  rights_002: { de: 'Einfache Weiterverwendung mit Bedingungen', en: 'Simple reuse with conditions' },
  rights_003: { de: 'Weiterverwendung nur mit Genehmigung', en: 'Reuse only with permission' },
};

const BOOLEANS: Readonly<Record<string, Readonly<Record<Lang, string>>>> = {
  true: { de: 'ja', en: 'yes' },
  false: { de: 'nein', en: 'no' },
};

/** How a facet value reads: vocabulary codes by their names, anything else as written. */
export function facetValueLabel(field: string, value: string, lang: Lang): string {
  const table =
    field === 'sector_fct'
      ? SECTORS
      : field === 'type_fct'
        ? MEDIA_TYPES
        : field === 'has_media_fct'
          ? BOOLEANS
          : field === 'license_group'
            ? LICENSE_GROUP_LABELS
            : undefined;
  return table?.[value]?.[lang] ?? value;
}

/** The name of a facet field, or the field itself when the pages have none for it. */
export function facetLabel(field: string, lang: Lang): string {
  const m = MESSAGES[lang] as unknown as Record<string, string>;
  return Object.hasOwn(m, field) ? m[field]! : field;
}

interface LanguageRange {
  tag: string;
  q: number;
}

/**
 * The page language: `?lang=` when it names one of ours, else the first of ours by the
 * weights of Accept-Language (a range `de-AT` matches `de`; `*` matches German first),
 * else German.
 */
export function chooseLang(param: unknown, acceptLanguage: string | undefined): Lang {
  if (param === 'de' || param === 'en') return param;
  if (acceptLanguage === undefined) return 'de';
  const ranges: LanguageRange[] = [];
  for (const part of acceptLanguage.split(',')) {
    const [tag = '', ...params] = part.split(';').map((s) => s.trim());
    if (tag === '') continue;
    let q = 1;
    for (const p of params) {
      const m = /^q=([0-9.]+)$/i.exec(p);
      if (m) q = Math.min(1, Number(m[1]) || 0);
    }
    ranges.push({ tag: tag.toLowerCase(), q });
  }
  let best: Lang = 'de';
  let bestQ = 0;
  // Ties go to the range written first (a stable sort keeps the header's order).
  for (const r of ranges.sort((a, b) => b.q - a.q)) {
    if (r.q <= bestQ) break;
    const primary = r.tag.split('-')[0];
    const lang = primary === '*' ? 'de' : LANGS.find((l) => l === primary);
    if (lang !== undefined) {
      best = lang;
      bestQ = r.q;
    }
  }
  return best;
}
