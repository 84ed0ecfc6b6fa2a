/**
 * The item page's words for its viewer, citation, downloads and links (docs/pages.md "Item
 * page"), German and English; ./messages.ts takes them into each language's words.
 */
export const ITEM_DE = {
  atSource: 'beim Datengeber ansehen',
  viewer: 'Betrachter',
  viewerNote: 'Zoomen mit Mausrad, Tasten + und − oder zwei Fingern; verschieben durch Ziehen.',
  openInViewer: 'Im Betrachter öffnen',
  play: 'Abspielen',
  cite: 'Zitieren und teilen',
  citation: 'Zitierhinweis',
  bibtex: 'Zitierhinweis als BibTeX',
  downloadBibtex: 'BibTeX-Datei herunterladen (.bib)',
  permalink: 'Permalink',
  accessed: 'abgerufen am {date}',
  downloadRecord: 'Datensatz herunterladen',
  recordPackage: 'Paket',
  downloadMedia: 'Medien herunterladen',
  mediaNotReusable: 'Die Medien dürfen nur mit Genehmigung der Rechteinhaber nachgenutzt werden.',
  searchFor: 'Nach „{text}“ suchen',
};

export const ITEM_EN: typeof ITEM_DE = {
  atSource: 'view at the provider',
  viewer: 'Viewer',
  viewerNote: 'Zoom with the mouse wheel, the + and − keys or two fingers; pan by dragging.',
  openInViewer: 'Open in the viewer',
  play: 'Play',
  cite: 'Cite and share',
  citation: 'Citation',
  bibtex: 'Citation as BibTeX',
  downloadBibtex: 'Download the BibTeX file (.bib)',
  permalink: 'Permalink',
  accessed: 'accessed {date}',
  downloadRecord: 'Download the record',
  recordPackage: 'Package',
  downloadMedia: 'Download the media',
  mediaNotReusable: 'The media may be reused only with the permission of the rights holders.',
  searchFor: 'Search for “{text}”',
};
