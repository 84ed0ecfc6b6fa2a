// The sector an EDM record's data provider gets from its name when neither its Agent nor the
// providers file names one (docs/edm-mapping.md, sector_fct).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sectorOfName } from '../../src/ingest/edm/sectorOfName.js';

test('the word for the kind of institution gives the sector, in compounds and several languages', () => {
  const table: Array<[string, string]> = [
    ['Germanisches Nationalmuseum', 'sec_06'],
    ['Museum für Musikinstrumente der Universität Leipzig', 'sec_06'],
    ['Musée du Louvre', 'sec_06'],
    ['Bayerische Staatsgemäldesammlungen – Pinakothek der Moderne', 'sec_06'],
    ['National and University Library of Slovenia', 'sec_02'],
    ['Niedersächsische Staats- und Universitätsbibliothek Göttingen', 'sec_02'],
    ['Bibliothèque nationale de France', 'sec_02'],
    ['Stadtarchiv Leipzig', 'sec_01'],
    ['The National Archives', 'sec_01'],
    ['Landesamt für Denkmalpflege Hessen', 'sec_03'],
    ['Leibniz-Institut für Bildungsforschung', 'sec_04'],
    ['Deutsche Mediathek', 'sec_05'],
    // The word named first is the institution: a museum's library is a library.
    ['Bibliothek des Germanischen Nationalmuseums', 'sec_02'],
    ['Archiv und Bibliothek des Hauses', 'sec_01'],
    // No word for a kind: no sector rather than a guess.
    ['Amsab-Institute of Social History', ''],
    ['Stiftung Preußischer Kulturbesitz', ''],
    ['', ''],
  ];
  for (const [name, sector] of table) assert.equal(sectorOfName(name), sector, name);
});
