/**
 * The words of the ways to explore (docs/pages.md "Ways to explore": the home page's
 * starts, all values of a facet, the date range, similar items, the persons index), in
 * German and English; ./messages.ts adds them to each language's words.
 */
import { numberFormat } from './numberFormat.js';
export const EXPLORE_DE = {
  withImages: 'Objekte mit Bildern',
  recent: 'Neu und aktualisiert',
  showAll: 'Alle anzeigen',
  allValuesOf: 'Alle Werte von „{facet}“',
  filterValues: 'Werte filtern',
  filterButton: 'Filtern',
  valuesShowing: '{from}–{to} von {total} Werten',
  noValues: 'Kein Wert enthält „{text}“.',
  backToResults: 'Zurück zu den Ergebnissen',
  byCount: 'Nach Häufigkeit',
  byName: 'Alphabetisch',
  order: 'Reihenfolge',
  unknownFacet: 'Die Facette „{facet}“ gibt es nicht; es gibt {facets}.',
  dateRange: 'Zeitraum',
  fromYear: 'Von Jahr',
  toYear: 'Bis Jahr',
  applyRange: 'Anwenden',
  removeRange: 'Zeitraum entfernen',
  timeline: 'Objekte nach Zeit',
  barCount: '{range}: {items}',
  badYear: 'Das Jahr „{year}“ ist keines von 1 bis 2100; der Zeitraum beginnt oder endet deshalb offen.',
  rangeLabel: 'Zeitraum: {range}',
  similar: 'Ähnliche Objekte',
  personsIndex: 'Personen von A bis Z',
  byInitial: 'Nach Anfangsbuchstabe',
  allInitials: 'Alle',
  otherInitial: 'Andere',
  itemCountOne: '1 Objekt',
  itemCountOther: '{count} Objekte',
  noItems: 'keine Objekte',
  mostItems: 'Meiste Objekte zuerst',
  nameOrder: 'Name A–Z',
  personsShowing: '{from}–{to} von {total} Personen',
  noPersons: 'Keine Personen mit diesem Anfangsbuchstaben.',
  browsePersons: 'Personen durchblättern',
  badInitial: 'Den Anfangsbuchstaben „{initial}“ gibt es hier nicht: schreiben Sie einen von A bis Z.',
};

export type ExploreMessages = typeof EXPLORE_DE;

export const EXPLORE_EN: ExploreMessages = {
  withImages: 'Items with images',
  recent: 'New and updated',
  showAll: 'Show all',
  allValuesOf: 'All values of “{facet}”',
  filterValues: 'Filter values',
  filterButton: 'Filter',
  valuesShowing: '{from}–{to} of {total} values',
  noValues: 'No value contains “{text}”.',
  backToResults: 'Back to the results',
  byCount: 'By count',
  byName: 'Alphabetically',
  order: 'Order',
  unknownFacet: 'There is no facet “{facet}”; there are {facets}.',
  dateRange: 'Date range',
  fromYear: 'From year',
  toYear: 'To year',
  applyRange: 'Apply',
  removeRange: 'Remove date range',
  timeline: 'Items over time',
  barCount: '{range}: {items}',
  badYear: 'The year “{year}” is not one of 1 to 2100, so the range starts or ends open.',
  rangeLabel: 'Date range: {range}',
  similar: 'Similar items',
  personsIndex: 'Persons from A to Z',
  byInitial: 'By initial',
  allInitials: 'All',
  otherInitial: 'Other',
  itemCountOne: '1 item',
  itemCountOther: '{count} items',
  noItems: 'no items',
  mostItems: 'Most items first',
  nameOrder: 'Name A–Z',
  personsShowing: '{from}–{to} of {total} persons',
  noPersons: 'No persons with this initial.',
  browsePersons: 'Browse persons',
  badInitial: 'There is no initial “{initial}” here: write one of A to Z.',
};

/** "1 Objekt", "12 Objekte": a count of items in words of the language. */
export function itemCount(t: Pick<ExploreMessages, 'itemCountOne' | 'itemCountOther'>, count: number, lang: 'de' | 'en'): string {
  return count === 1 ? t.itemCountOne : t.itemCountOther.replace('{count}', numberFormat(lang)(count));
}
