/**
 * The labels of a view in the language a client asks for (`lang`, which the
 * DDB's clients send with item parts: docs/api.md "The parts of a package").
 *
 * The packages name the fields of their view in German (`<field id="flex_bibl_003">
 * <name>Dokumenttyp</name>`), as the DDB delivers them and as we build them
 * from EDM (../ingest/edm/viewFields.ts). The same German name stands for the
 * same field across the DDB's sector mappings (`flex_bibl_*`, `flex_mus_*`,
 * ...), so the English label is found by the German name. A name this table
 * does not know stays as stored; values are never translated (they are the
 * provider's data).
 */
import { NS } from './namespaces.js';
import type { XmlElement } from './xmlTree.js';

/** The languages the labels exist in: German as stored, and English. */
export type LabelLanguage = 'de' | 'en';

const ENGLISH: Readonly<Record<string, string>> = {
  '(Beschreibung)': '(description)',
  '(wann)': '(when)',
  '(wer)': '(who)',
  '(wo)': '(where)',
  Anfang: 'Beginning',
  Autor: 'Author',
  Beschreibung: 'Description',
  Bestand: 'Holding',
  Beteiligte: 'Contributors',
  'Bezug (Ereignis)': 'Reference (event)',
  'Bezug (was)': 'Reference (what)',
  'Bezug (wer)': 'Reference (who)',
  'Bezug (wo)': 'Reference (where)',
  'Bezug (wann)': 'Reference (when)',
  Beziehung: 'Relation',
  'Bibliographische Angabe': 'Bibliographic citation',
  Datierung: 'Date',
  Dokumenttyp: 'Document type',
  Ende: 'End',
  Entstehungszeit: 'Date of creation',
  Ereignis: 'Event',
  'Erschienen in': 'Published in',
  Erscheinungsjahr: 'Year of publication',
  Förderung: 'Funding',
  Herausgeber: 'Editor',
  Identifikator: 'Identifier',
  Inventarnummer: 'Inventory number',
  Klassifikation: 'Classification',
  Kontext: 'Context',
  Kurzbeschreibung: 'Short description',
  Lizenz: 'License',
  Lizenzstatus: 'License status',
  'Material/Technik': 'Material/technique',
  Maße: 'Dimensions',
  'Objekt Bezeichnung': 'Object name',
  Objektbeschreibung: 'Object description',
  Objektbezeichnung: 'Object name',
  Objekttyp: 'Object type',
  'Original Titel': 'Original title',
  Ort: 'Place',
  Provenienz: 'Provenance',
  Quelle: 'Source',
  'Räumlicher oder zeitlicher Bezug': 'Spatial or temporal coverage',
  Rechte: 'Rights',
  Sammlung: 'Collection',
  Schlagwort: 'Keyword',
  Signatur: 'Shelfmark',
  Sprache: 'Language',
  Standort: 'Location',
  'Teil von': 'Part of',
  Thema: 'Subject',
  Titel: 'Title',
  Umfang: 'Extent',
  Urheber: 'Creator',
  Verlag: 'Publisher',
  'Verwandtes Objekt/Literatur': 'Related object/literature',
  'Weitere Nummer(n)': 'Other number(s)',
  'Weitere Titel': 'Other titles',
  Zeitraum: 'Period',
};

/**
 * The label language of a `lang` value (a language tag: `en`, `en-GB`, `de`):
 * English for English, else German, the language of the stored labels.
 */
export function labelLanguage(lang: string | undefined): LabelLanguage {
  return lang !== undefined && /^en(?:-|$)/i.test(lang) ? 'en' : 'de';
}

const isElement = (c: XmlElement | string): c is XmlElement => typeof c !== 'string';

/** A copy of the view element with each field's `name` in `language`. */
export function viewInLanguage(view: XmlElement, language: LabelLanguage): XmlElement {
  if (language === 'de') return view;
  const walk = (el: XmlElement, inField: boolean): XmlElement => {
    if (inField && el.local === 'name' && el.namespace === NS.item) {
      const text = el.children.filter((c): c is string => typeof c === 'string').join('');
      const english = ENGLISH[text.trim()];
      return english === undefined || el.children.some(isElement) ? el : { ...el, children: [english] };
    }
    const field = el.local === 'field' && el.namespace === NS.item;
    // Only a field's own name: a viewer's or an institution's <name> is a name, not a label.
    return { ...el, children: el.children.map((c) => (isElement(c) ? walk(c, field) : c)) };
  };
  return walk(view, false);
}

/** The English label of a field the packages name in German, or undefined when the table does not know it. */
export function englishLabel(germanName: string): string | undefined {
  return Object.hasOwn(ENGLISH, germanName.trim()) ? ENGLISH[germanName.trim()] : undefined;
}
