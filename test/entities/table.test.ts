/**
 * Acceptance table for GET /entities over the 1,222 real EntityFacts persons of
 * fixtures/persons/entityfacts/culturehub-1222-persons.json (spec 2.1,
 * 2.2, 4.2; docs/decisions.md "Entity search").
 *
 * Every expected number, id and facet value below was worked out from the raw fixture
 * by the scripts in test/entities/expected/README.md (an independent model of the
 * search contract), never from the code under test. Ids are GND numbers; the full
 * entity id is `http://d-nb.info/gnd/` + number.
 *
 * One app per backend serves the whole table. Each row checks numberOfResults, the
 * ids (exactly when there are at most 20, the page in order when a sort fixes it, and
 * the full set from a second request with rows=1000 otherwise), the requested facets
 * with their counts, and on every response the shape of spec 2.1 / 2.2 and every
 * returned doc against the expected doc of that person (expected/docs-alpha-asc.json).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { FIXTURES } from '../helpers/paths.js';
import {
  DOCS_ALPHA_ASC,
  EXPECTED_FACETS,
  EXPECTED_IDS,
  SCHRIFTSTELLER_IDS,
  checkDoc,
  checkShape,
  docsOf,
  gnd,
  search,
  type Params,
  type Row,
} from './tableHelpers.js';

const EF_FILE = `${FIXTURES}persons/entityfacts/culturehub-1222-persons.json`;

// Each row: a one-line note of how gen.py computed it, then the expectation.
const ROWS: Row[] = [
  // every record; first 20 by folded preferredName; gender labels counted (gen.py)
  {
    name: 'match all: *:* (ALPHA_ASC, gender facet)',
    q: '*:*',
    params: { sort: 'ALPHA_ASC', facet: ['person_gender_fct'] },
    total: 1222,
    page: [
      '126037531',
      '126307245',
      '125902336',
      '126358516',
      '126740046',
      '126857369',
      '125865996',
      '127537481',
      '126312710',
      '126440565',
      '126448086',
      '126544263',
      '126548463',
      '126763771',
      '126484015',
      '126571708',
      '126819211',
      '126979219',
      '126195358',
      '131367706',
    ],
    // page begins: ... Beresowski, ... Emko, ... Graf Amori, ... Harzheim, ...
    facets: {
      person_gender_fct: [
        ['Mann', 662],
        ['Frau', 57],
      ],
    },
  },
  // every record is a person; first 20 by folded preferredName descending (gen.py)
  {
    name: 'type:person matches every person (ALPHA_DESC)',
    q: 'type:person',
    params: { sort: 'ALPHA_DESC' },
    total: 1222,
    page: [
      '109960785',
      '127303421',
      '143148745',
      '118620045',
      '116483733',
      '126980519',
      '126627495',
      '116447826',
      '127406085',
      '118520776',
      '117348171',
      '1044667761',
      '127961682',
      '117054666',
      '1032722703',
      '126618887',
      '118819275',
      '116588764',
      '126236267',
      '106582062',
    ],
    // page begins: ʿUmar Ibn-Muḥammad an-Nafzāwī, Zecilia Samuilovna Zelikon-Bobrovskaja, Yolanda Foldes, Yat-sen Sun, ...
  },
  // persons with token "schriftsteller" in any text field; facet = occupation labels of those (gen.py)
  {
    name: 'plain term: Schriftsteller (occupation facet)',
    q: 'Schriftsteller',
    params: { facet: ['person_occupation_fct'] },
    total: 363,
    set: true, // the full set is in expected/ids.json
    facetsFile: true, // values in expected/facets.json; they begin:
    // person_occupation_fct (100): Schriftsteller 363, Journalist 59, Dramatiker 27, Übersetzer 17, Jurist 16, Publizist 16, ...
  },
  // tokens "new york" adjacent inside one value of any text field (gen.py)
  {
    name: 'phrase: "New York" (place facet)',
    q: '"New York"',
    params: { facet: ['person_place_fct'] },
    total: 25,
    set: true, // the full set is in expected/ids.json
    facetsFile: true, // values in expected/facets.json; they begin:
    // person_place_fct (24): New York, NY 19, New York 4, Berlin 3, Wien 3, Angermünde 1, Brünn 1, ...
  },
  // both terms, each in any text field (gen.py)
  {
    name: 'default AND: Schriftsteller Wien',
    q: 'Schriftsteller Wien',
    total: 14,
    ids: [
      '101781520',
      '107024640',
      '116644036',
      '118515691',
      '118516477',
      '118522914',
      '118535560',
      '118542664',
      '118547143',
      '118571990',
      '118637479',
      '118753088',
      '118851039',
      '173102670',
    ],
  },
  // both terms (gen.py)
  {
    name: 'AND: Journalist AND Politiker',
    q: 'Journalist AND Politiker',
    total: 10,
    ids: ['101638450', '118550578', '118579975', '118631179', '118712993', '119338041', '122231287', '123562155', '124544479', '128639539'],
  },
  // either term (gen.py)
  {
    name: 'OR: Soziologe OR Philosoph (occupation facet)',
    q: 'Soziologe OR Philosoph',
    params: { facet: ['person_occupation_fct'] },
    total: 61,
    set: true, // the full set is in expected/ids.json
    facetsFile: true, // values in expected/facets.json; they begin:
    // person_occupation_fct (48): Philosoph 44, Soziologe 22, Schriftsteller 16, Historiker 4, Journalist 4, Jurist 4, ...
  },
  // "schriftsteller" and no token "mann" anywhere (gender label Mann, names like Mann) (gen.py)
  {
    name: 'NOT: Schriftsteller NOT Mann',
    q: 'Schriftsteller NOT Mann',
    total: 48,
    set: true, // the full set is in expected/ids.json
  },
  // must "arzt", must not "berlin" (gen.py)
  {
    name: '+/-: +Arzt -Berlin',
    q: '+Arzt -Berlin',
    total: 30,
    set: true, // the full set is in expected/ids.json
  },
  // one of the two occupations and "berlin" anywhere (gen.py)
  {
    name: 'grouping: (Maler OR Grafiker) AND Berlin',
    q: '(Maler OR Grafiker) AND Berlin',
    total: 2,
    ids: ['118507958', '118601121'], // Ulrich Becher, Joachim Ringelnatz
  },
  // either term, and neither place name anywhere (gen.py)
  {
    name: 'nested grouping with NOT: (Journalist OR Redakteur) AND NOT (Berlin OR Wien)',
    q: '(Journalist OR Redakteur) AND NOT (Berlin OR Wien)',
    total: 103,
    set: true, // the full set is in expected/ids.json
  },
  // with default AND the two OR-ed terms become optional: same set as "Wien" (gen.py)
  {
    name: 'Lucene oddity: a OR b c behaves like c (Maler OR Grafiker Wien)',
    q: 'Maler OR Grafiker Wien',
    total: 33,
    set: true, // the full set is in expected/ids.json
  },
  // records without a gender node (gen.py)
  {
    name: '*:* with a negative clause: *:* -gender:*',
    q: '*:* -gender:*',
    params: { sort: 'ALPHA_ASC' },
    total: 503,
    page: [
      '126037531',
      '126307245',
      '125902336',
      '126358516',
      '126740046',
      '126857369',
      '125865996',
      '127537481',
      '126312710',
      '126440565',
      '126448086',
      '126544263',
      '126763771',
      '126484015',
      '126571708',
      '126819211',
      '126979219',
      '126195358',
      '131367706',
      '122051998',
    ],
    // page begins: ... Beresowski, ... Emko, ... Graf Amori, ... Harzheim, ...
  },
  // no person has the token "goethe" (gen.py)
  {
    name: 'no hits: Goethe (facet of an empty result is empty)',
    q: 'Goethe',
    params: { facet: ['person_occupation_fct'] },
    total: 0,
    ids: [],
    facets: { person_occupation_fct: [] },
  },
  // one term of two tokens, matched as the phrase "lernet holenia" (gen.py)
  {
    name: 'hyphenated term: Lernet-Holenia',
    q: 'Lernet-Holenia',
    total: 1,
    ids: ['118571990'], // Alexander Lernet-Holenia
  },
  // either token in an occupation label (gen.py)
  {
    name: 'field grouping: professionOrOccupation:(Soziologe OR Nationalökonom)',
    q: 'professionOrOccupation:(Soziologe OR Nationalökonom)',
    total: 25,
    set: true, // the full set is in expected/ids.json
  },
  // gender Frau and token "berlin" in placeOfBirth (gen.py)
  {
    name: '+ on fields: +gender:Frau +placeOfBirth:Berlin',
    q: '+gender:Frau +placeOfBirth:Berlin',
    total: 2,
    ids: ['117633224', '130019194'], // Regine Deutsch, Hertha Pataky Riese
  },
  // token "1945" in dateOfDeath (gen.py)
  {
    name: 'type:person AND a field: type:person AND dateOfDeath:1945',
    q: 'type:person AND dateOfDeath:1945',
    params: { sort: 'ALPHA_ASC' },
    total: 27,
    page: [
      '116288582',
      '118930974',
      '102713855',
      '116098678',
      '118758160',
      '119454351',
      '118602551',
      '116241802',
      '118559427',
      '116968540',
      '118614711',
      '117520705',
      '118775294',
      '118768182',
      '117420603',
      '121313891',
      '116800992',
      '118597825',
      '117259411',
      '1025144899',
    ],
    // page begins: Alma Johanna Koenig, Anton de Kom, B. A. Keller, Bernhard Diebold, ...
  },
  // @id 116935839: variantName and occupation deduplicated, no placeOfDeath key (gen.py)
  {
    name: 'id:"http://…" finds exactly that person (full doc, duplicates dropped)',
    q: 'id:"http://d-nb.info/gnd/116935839"',
    total: 1,
    ids: ['116935839'], // Hans von Hoffensthal
    doc: {
      id: 'http://d-nb.info/gnd/116935839',
      type: 'person',
      preferredName: 'Hans von Hoffensthal',
      variantName: [
        'Hans von Hepperger zu Tirschtenberg und Hoffensthal',
        'Hans von Heppberger',
        'Johann Nepomuk Anton Josef Maria von Hepperger zu Tirschtenberg und Hoffensthal',
      ],
      dateOfBirth: '16. August 1877',
      dateOfDeath: '7. Dezember 1914',
      placeOfBirth: ['St. Magdalena'],
      professionOrOccupation: ['Schriftsteller', 'Neurologe'],
      count: 0,
    },
  },
  // @id 118758160 asked with https (gen.py)
  {
    name: 'id:"https://…" form finds the same person (full doc)',
    q: 'id:"https://d-nb.info/gnd/118758160"',
    total: 1,
    ids: ['118758160'], // Bertha Zuckerkandl
    doc: {
      id: 'http://d-nb.info/gnd/118758160',
      type: 'person',
      preferredName: 'Bertha Zuckerkandl',
      variantName: [
        'Berta Zuckerkandl',
        'Berta Szeps-Zuckerkandl',
        'Bertha Szeps-Zuckerkandl',
        'Berta Zuckerkandl-Szeps',
        'Berta Zuckerkandl Szeps',
        'Berta Szeps',
      ],
      dateOfBirth: '1864',
      dateOfDeath: '1945',
      placeOfBirth: ['Wien'],
      placeOfDeath: ['Paris'],
      professionOrOccupation: ['Journalistin', 'Kunstkritikerin', 'Theaterkritikerin', 'Schriftstellerin', 'Übersetzerin'],
      count: 0,
    },
  },
  // escaped colon, unquoted URI; no places, so no place keys (gen.py)
  {
    name: 'escape: id:http\\://d-nb.info/gnd/124963463',
    q: 'id:http\\://d-nb.info/gnd/124963463',
    total: 1,
    ids: ['124963463'], // Ignaz Zadek
    doc: {
      id: 'http://d-nb.info/gnd/124963463',
      type: 'person',
      preferredName: 'Ignaz Zadek',
      variantName: ['I. Zadek'],
      dateOfBirth: '1858',
      dateOfDeath: '1931',
      professionOrOccupation: ['Arzt'],
      count: 0,
    },
  },
  // @id 124264980 (Wahrmund) has only a preferredName (gen.py)
  {
    name: 'id of a bare record: variantName is [] and optional keys are omitted',
    q: 'id:"http://d-nb.info/gnd/124264980"',
    total: 1,
    ids: ['124264980'], // Wahrmund
    doc: {
      id: 'http://d-nb.info/gnd/124264980',
      type: 'person',
      preferredName: 'Wahrmund',
      variantName: [],
      count: 0,
    },
  },
  // token "benjamin" in preferredName only (Ben B. Lindsey has it in a variant only) (gen.py)
  {
    name: 'field preferredName:Benjamin',
    q: 'preferredName:Benjamin',
    total: 2,
    ids: ['118509039', '127399631'], // Walter Benjamin, Benjamin
  },
  // phrase in one variantName (gen.py)
  {
    name: 'field variantName:"Johann Sebastian"',
    q: 'variantName:"Johann Sebastian"',
    total: 1,
    ids: ['118507931'], // Johannes R. Becher
  },
  // token "1900" in dateOfBirth (gen.py)
  {
    name: 'field dateOfBirth:1900 (term in the date text)',
    q: 'dateOfBirth:1900',
    total: 20,
    ids: [
      '101207492',
      '102032718',
      '1025448308',
      '103203540',
      '1034350072',
      '116428295',
      '116648708',
      '118508350',
      '118528599',
      '118536389',
      '118547313',
      '118608649',
      '118634046',
      '118890476',
      '119103249',
      '121043983',
      '122037545',
      '123630797',
      '124384080',
      '127299513',
    ],
  },
  // tokens "mai 1945" adjacent in dateOfDeath (gen.py)
  {
    name: 'field phrase dateOfDeath:"Mai 1945"',
    q: 'dateOfDeath:"Mai 1945"',
    total: 3,
    ids: ['1025144899', '117520705', '118722913'], // Otto Abeles, Immanuel Herrmann, Paul Humburg
  },
  // token "wien" in placeOfBirth (gen.py)
  {
    name: 'field placeOfBirth:Wien (place facet)',
    q: 'placeOfBirth:Wien',
    params: { facet: ['person_place_fct'] },
    total: 29,
    set: true, // the full set is in expected/ids.json
    facetsFile: true, // values in expected/facets.json; they begin:
    // person_place_fct (17): Wien 28, New York, NY 3, Berlin 2, Baden (Niederösterreich) 1, Berlin <Ost> 1, Blois 1, ...
  },
  // token "berlin" in placeOfDeath (gen.py)
  {
    name: 'field placeOfDeath:Berlin',
    q: 'placeOfDeath:Berlin',
    params: { sort: 'ALPHA_ASC' },
    total: 43,
    page: [
      '118588605',
      '116941359',
      '118542710',
      '116885270',
      '116312157',
      '118515691',
      '116118768',
      '117535214',
      '124417434',
      '118545876',
      '118534602',
      '138356971',
      '118682644',
      '118579975',
      '116567635',
      '1017993297',
      '133794156',
      '135001706',
      '118630377',
      '117137154',
    ],
    // page begins: Albert Norden, Alexander Moszkowski, Alfred Grotjahn, Annemarie von Nathusius, ...
  },
  // token "arzt" in an occupation label (gen.py)
  {
    name: 'field professionOrOccupation:Arzt',
    q: 'professionOrOccupation:Arzt',
    total: 33,
    set: true, // the full set is in expected/ids.json
  },
  // gender label Frau (gen.py)
  {
    name: 'field gender:Frau (gender facet)',
    q: 'gender:Frau',
    params: { facet: ['person_gender_fct'] },
    total: 57,
    set: true, // the full set is in expected/ids.json
    facets: { person_gender_fct: [['Frau', 57]] },
  },
  // count is 0 for everyone (gen.py)
  {
    name: 'field count:0 matches all (no items loaded)',
    q: 'count:0',
    total: 1222,
  },
  // records with a placeOfDeath node (gen.py)
  {
    name: 'field:* placeOfDeath:*',
    q: 'placeOfDeath:*',
    params: { sort: 'ALPHA_ASC' },
    total: 328,
    page: [
      '122051998',
      '118564161',
      '118924613',
      '118624636',
      '119345625',
      '105413542',
      '118588605',
      '118571990',
      '116941359',
      '118500686',
      '104279702',
      '118542710',
      '118567365',
      '106303317',
      '116288582',
      '118967932',
      '116885270',
      '120185954',
      '116312157',
      '116938609',
    ],
    // page begins: Adolf J. Storfer, Adolf Köberle, Adolf Uzarski, Adrien Turel, ...
  },
  // records with at least one variantName and a placeOfBirth (gen.py)
  {
    name: 'field:* variantName:* AND field:* placeOfBirth:*',
    q: 'variantName:* AND placeOfBirth:*',
    total: 336,
    set: true, // the full set is in expected/ids.json
  },
  // some token of any text field starts with "schrift" (gen.py)
  {
    name: 'prefix wildcard: schrift*',
    q: 'schrift*',
    params: { facet: ['person_occupation_fct'], 'facet.limit': '10' },
    total: 396,
    set: true, // the full set is in expected/ids.json
    facets: {
      person_occupation_fct: [
        ['Schriftsteller', 363],
        ['Journalist', 60],
        ['Schriftstellerin', 32],
        ['Dramatiker', 27],
        ['Publizist', 17],
        ['Übersetzer', 17],
        ['Jurist', 16],
        ['Redakteur', 16],
        ['Historiker', 13],
        ['Maler', 13],
      ],
    },
  },
  // an occupation token starting "theolog" (gen.py)
  {
    name: 'field prefix wildcard: professionOrOccupation:theolog*',
    q: 'professionOrOccupation:theolog*',
    params: { facet: ['person_occupation_fct'] },
    total: 51,
    set: true, // the full set is in expected/ids.json
    facetsFile: true, // values in expected/facets.json; they begin:
    // person_occupation_fct (45): Theologe 25, Katholischer Theologe 15, Evangelischer Theologe 13, Pfarrer 10, Philosoph 5, Publizist 3, ...
  },
  // a token of 6 letters m.ller after folding (müller, meller, miller, ...) (gen.py)
  {
    name: '? wildcard: m?ller',
    q: 'm?ller',
    total: 10,
    ids: [
      '1041315821',
      '116747692',
      '116845740',
      '118585061',
      '118601695',
      '118813978',
      '126751633',
      '129046027',
      '129711691',
      '138105804',
    ],
  },
  // a token starting "sch" and ending "ler" (gen.py)
  {
    name: 'inner * wildcard: sch*ler',
    q: 'sch*ler',
    params: { sort: 'ALPHA_ASC' },
    total: 370,
    page: [
      '122051998',
      '118624636',
      '105413542',
      '118588605',
      '129711691',
      '118555081',
      '118638971',
      '118778242',
      '127957731',
      '119470950',
      '116395257',
      '116471557',
      '118571990',
      '116941359',
      '126802491',
      '104279702',
      '118567365',
      '119538857',
      '117469599',
      '118671448',
    ],
    // page begins: Adolf J. Storfer, Adrien Turel, Albert Ehrismann, Albert Norden, ...
  },
  // wildcards are case-insensitive too: tokens starting "journal" (gen.py)
  {
    name: 'uppercase prefix wildcard: Journal*',
    q: 'Journal*',
    total: 106,
    set: true, // the full set is in expected/ids.json
  },
  // first 3-4 digit run of dateOfBirth in 1900..1910 (gen.py)
  {
    name: 'inclusive range: dateOfBirth:[1900 TO 1910]',
    q: 'dateOfBirth:[1900 TO 1910]',
    params: { sort: 'ALPHA_ASC' },
    total: 132,
    page: [
      '118689681',
      '118857711',
      '105413542',
      '118588605',
      '118638971',
      '119086948',
      '118905929',
      '104279702',
      '118576844',
      '118860461',
      '119052784',
      '119375753',
      '129320811',
      '121575640',
      '116930608',
      '118564536',
      '118610341',
      '124979122',
      '121043983',
      '123663636',
    ],
    // page begins: Adolf Gasser, Adolf Sturmthal, Albert Ehrismann, Albert Norden, ...
  },
  // year in 1934..1944 (excludes Hanussen "24./25.03.1933") (gen.py)
  {
    name: 'exclusive range: dateOfDeath:{1933 TO 1945}',
    q: 'dateOfDeath:{1933 TO 1945}',
    total: 162,
    set: true, // the full set is in expected/ids.json
  },
  // year in 1933..1945 (gen.py)
  {
    name: 'inclusive range bounds: dateOfDeath:[1933 TO 1945]',
    q: 'dateOfDeath:[1933 TO 1945]',
    total: 198,
    set: true, // the full set is in expected/ids.json
  },
  // year <= 1800; "66", "42 v.Chr." have no 3-4 digit year and never match (gen.py)
  {
    name: 'open lower range: dateOfDeath:[* TO 1800]',
    q: 'dateOfDeath:[* TO 1800]',
    total: 3,
    ids: ['118657011', '118717286', '128639547'], // Matteo Bandello, Edward Gibbon, Johann Gorgias
  },
  // year >= 1910 (gen.py)
  {
    name: 'open upper range: dateOfBirth:[1910 TO *]',
    q: 'dateOfBirth:[1910 TO *]',
    total: 15,
    ids: [
      '1012715906',
      '1019423951',
      '102106916',
      '103614222',
      '1046930699',
      '115600949',
      '117061476',
      '118507958',
      '118612875',
      '118943502',
      '119073714',
      '119482649',
      '126035369',
      '131367706',
      '140912096',
    ],
  },
  // born 1850..1899 and token "schriftstellerin" (gen.py)
  {
    name: 'range and term: dateOfBirth:[1850 TO 1899] AND Schriftstellerin',
    q: 'dateOfBirth:[1850 TO 1899] AND Schriftstellerin',
    total: 25,
    set: true, // the full set is in expected/ids.json
  },
  // year = first 3-4 digit run: "07,11.1838" and "19. März 1838" (gen.py)
  {
    name: 'range year from odd date texts: dateOfBirth:[1838 TO 1838]',
    q: 'dateOfBirth:[1838 TO 1838]',
    total: 2,
    ids: ['116312157', '118627058'], // Anton Anno, Auguste de Villiers de L'Isle-Adam
  },
  // includes "24./25.03.1933" (Hanussen) (gen.py)
  {
    name: 'range year from odd date texts: dateOfDeath:[1933 TO 1933]',
    q: 'dateOfDeath:[1933 TO 1933]',
    total: 9,
    ids: ['116309148', '116576782', '118532146', '118545876', '118548867', '118636618', '118992252', '126906939', '138991537'],
  },
  // includes "00.00.1857" (Ludwig von Marnitz) (gen.py)
  {
    name: 'range year from odd date texts: dateOfBirth:[1857 TO 1857]',
    q: 'dateOfBirth:[1857 TO 1857]',
    total: 5,
    ids: ['118636618', '118813978', '118833073', '121913902', '135722705'],
  },
  // his dateOfBirth is "18XX": no 3-4 digit run (gen.py)
  {
    name: 'range never matches a text without a year: dateOfBirth:[1800 TO 1899] AND Warschatka',
    q: 'dateOfBirth:[1800 TO 1899] AND Warschatka',
    total: 0,
    ids: [],
  },
  // escaped hyphen: the term is the phrase "schulze boysen" (gen.py)
  {
    name: 'escape: Schulze\\-Boysen',
    q: 'Schulze\\-Boysen',
    total: 1,
    ids: ['118935437'], // Harro Schulze-Boysen
  },
  // escaped parentheses are term text: erlenbach AND kanton AND zurich (gen.py)
  {
    name: 'escape: Erlenbach \\(Kanton Zürich\\)',
    q: 'Erlenbach \\(Kanton Zürich\\)',
    total: 1,
    ids: ['118608649'], // Paul Schmid-Ammann
  },
  // č folds to c (gen.py)
  {
    name: 'diacritics: Tuchacevskij finds Tuchačevskij',
    q: 'Tuchacevskij',
    total: 1,
    ids: ['118763091'], // Michail N. Tuchačevskij
  },
  // ß folds to ss (gen.py)
  {
    name: 'ß folding: Strauss finds Strauss and Strauß (name facet)',
    q: 'Strauss',
    params: { facet: ['person_name_fct'] },
    total: 2,
    ids: ['1034350072', '128639539'], // Bruno Strauss, Emil Strauß
    facets: {
      person_name_fct: [
        ['Bruno Strauss', 1],
        ['Emil Strauß', 1],
      ],
    },
  },
  // query with ß; Pierre Ramus has the variant "Rudolf Großmann" (gen.py)
  {
    name: 'ß folding: Großmann finds Grossmann and Großmann',
    q: 'Großmann',
    total: 4,
    ids: ['118542664', '118833197', '119321211', '136714080'], // Stefan Großmann, Pierre Ramus, Kurt Richard Grossmann, Oskar Grossmann
  },
  // place of birth "Jarosław (Woiwodschaft Vorkarpaten)" (gen.py)
  {
    name: 'ł folding: Jaroslaw finds Jarosław',
    q: 'Jaroslaw',
    total: 1,
    ids: ['116654368'], // Max Glass
  },
  // variant of Friedrich Engels (gen.py)
  {
    name: 'ł and macron folding: Ingels finds "Frīdrīk Īngēłs"',
    q: 'Ingels',
    total: 1,
    ids: ['118530380'], // Friedrich Engels
  },
  // variant of Friedrich Engels (gen.py)
  {
    name: 'đ folding: phridrich finds "Phriđrich Ang-ghên"',
    q: 'phridrich',
    total: 1,
    ids: ['118530380'], // Friedrich Engels
  },
  // ü folds to u, case ignored (gen.py)
  {
    name: 'case and umlaut: ZURICH finds Zürich',
    q: 'ZURICH',
    params: { facet: ['person_place_fct'] },
    total: 16,
    ids: [
      '105413542',
      '105655457',
      '116098678',
      '116644036',
      '117343102',
      '117350567',
      '117489336',
      '118516175',
      '118554549',
      '118579983',
      '118597825',
      '118608649',
      '118624636',
      '118737325',
      '119073714',
      '128407506',
    ],
    facetsFile: true, // values in expected/facets.json; they begin:
    // person_place_fct (13): Zürich 16, Bad Nauheim 1, Berlin 1, Biel 1, Chur 1, Erlenbach (Kanton Zürich) 1, ...
  },
  // query ö folds to o (gen.py)
  {
    name: 'accented query finds accented and plain: Köberle',
    q: 'Köberle',
    total: 1,
    ids: ['118564161'], // Adolf Köberle
  },
  // top 5 occupation labels over all persons (gen.py)
  {
    name: 'facet.limit=5 on the occupation facet',
    q: '*:*',
    params: { facet: ['person_occupation_fct'], 'facet.limit': '5' },
    total: 1222,
    facets: {
      person_occupation_fct: [
        ['Schriftsteller', 363],
        ['Journalist', 101],
        ['Politiker', 87],
        ['Jurist', 46],
        ['Philosoph', 44],
      ],
    },
  },
  // places (birth ∪ death, once per person) with count > 10 (gen.py)
  {
    name: 'minDocs=10 on the place facet',
    q: '*:*',
    params: { facet: ['person_place_fct'], minDocs: '10' },
    total: 1222,
    facets: {
      person_place_fct: [
        ['Berlin', 60],
        ['Wien', 32],
        ['New York, NY', 19],
        ['Hamburg', 18],
        ['Zürich', 16],
        ['München', 13],
        ['Paris', 13],
        ['Moskau', 12],
      ],
    },
  },
  // women; gender and place facets (gen.py)
  {
    name: 'two facets at once: gender and place for Frau',
    q: 'Frau',
    params: { facet: ['person_gender_fct', 'person_place_fct'] },
    total: 57,
    set: true, // the full set is in expected/ids.json
    facetsFile: true, // values in expected/facets.json; they begin:
    // person_gender_fct (1): Frau 57
    // person_place_fct (36): Wien 7, Berlin 4, New York, NY 3, Baden-Baden 2, Paris 2, Zürich 2, ...
  },
  // all persons, 100 of the occupation labels (gen.py)
  {
    name: 'default facet.limit 100 cuts the occupation list',
    q: '*:*',
    params: { facet: ['person_occupation_fct'] },
    total: 1222,
    facetsFile: true, // values in expected/facets.json; they begin:
    // person_occupation_fct (100): Schriftsteller 363, Journalist 101, Politiker 87, Jurist 46, Philosoph 44, Publizist 43, ...
  },
  // occupations with count > 20, at most 3 (gen.py)
  {
    name: 'facet.limit and minDocs together',
    q: '*:*',
    params: { facet: ['person_occupation_fct'], 'facet.limit': '3', minDocs: '20' },
    total: 1222,
    facets: {
      person_occupation_fct: [
        ['Schriftsteller', 363],
        ['Journalist', 101],
        ['Politiker', 87],
      ],
    },
  },
  // persons with the exact occupation label Schriftsteller (gen.py)
  {
    name: 'filter, one facet: person_occupation_fct=Schriftsteller',
    q: '*:*',
    params: { facet: ['person_gender_fct'], person_occupation_fct: 'Schriftsteller' },
    total: 363,
    set: true, // the full set is in expected/ids.json
    facets: { person_gender_fct: [['Mann', 315]] },
  },
  // place of birth or death exactly Wien or Berlin (gen.py)
  {
    name: 'filter, two values of one facet (OR): person_place_fct=Wien|Berlin',
    q: '*:*',
    params: { facet: ['person_place_fct'], 'facet.limit': '5', person_place_fct: ['Wien', 'Berlin'] },
    total: 91,
    set: true, // the full set is in expected/ids.json
    facets: {
      person_place_fct: [
        ['Berlin', 60],
        ['Wien', 32],
        ['New York, NY', 5],
        ['Hamburg', 2],
        ['Köln', 2],
      ],
    },
  },
  // gender Frau and place of birth or death Berlin (gen.py)
  {
    name: 'filter, two facets (AND): Frau and Berlin',
    q: '*:*',
    params: { facet: ['person_gender_fct'], person_gender_fct: 'Frau', person_place_fct: 'Berlin' },
    total: 4,
    ids: ['116885270', '117633224', '130019194', '138356971'], // Annemarie von Nathusius, Regine Deutsch, Hertha Pataky Riese, Eva Leidmann
    facets: { person_gender_fct: [['Frau', 4]] },
  },
  // occupation label Schriftsteller and place Wien (gen.py)
  {
    name: 'filter, two facets (AND): Schriftsteller and Wien, occupation facet',
    q: '*:*',
    params: { facet: ['person_occupation_fct'], person_occupation_fct: 'Schriftsteller', person_place_fct: 'Wien' },
    total: 14,
    ids: [
      '101781520',
      '107024640',
      '116644036',
      '118515691',
      '118516477',
      '118522914',
      '118535560',
      '118542664',
      '118547143',
      '118571990',
      '118637479',
      '118753088',
      '118851039',
      '173102670',
    ],
    facetsFile: true, // values in expected/facets.json; they begin:
    // person_occupation_fct (23): Schriftsteller 14, Journalist 4, Philosoph 2, Publizist 2, Pädagoge 2, Anthroposoph 1, ...
  },
  // term "berlin" anywhere and occupation label Politiker; occupation facet of those (gen.py)
  {
    name: 'filter plus query: Berlin and person_occupation_fct=Politiker',
    q: 'Berlin',
    params: { facet: ['person_occupation_fct'], person_occupation_fct: 'Politiker' },
    total: 6,
    ids: ['118507931', '118528130', '118572318', '118579975', '118588605', '118625179'],
    facets: {
      person_occupation_fct: [
        ['Politiker', 6],
        ['Schriftsteller', 2],
        ['Dramatiker', 1],
        ['Historiker', 1],
        ['Journalist', 1],
        ['Philologe', 1],
        ['Publizist', 1],
        ['Rechtsanwalt', 1],
        ['Sozialdemokrat', 1],
        ['Sozialist', 1],
        ['Tischler', 1],
      ],
    },
  },
  // exact place label "New York, NY" (gen.py)
  {
    name: 'filter value with comma and space: person_place_fct=New York, NY',
    q: '*:*',
    params: { facet: ['person_occupation_fct'], 'facet.limit': '5', person_place_fct: 'New York, NY' },
    total: 19,
    ids: [
      '117225789',
      '117250929',
      '118511734',
      '118529978',
      '118543571',
      '118565877',
      '118599216',
      '118683284',
      '118749749',
      '118755455',
      '118795392',
      '118796461',
      '118807730',
      '118950150',
      '118967932',
      '119269899',
      '119429764',
      '122231287',
      '137771657',
    ],
    facets: {
      person_occupation_fct: [
        ['Schriftsteller', 7],
        ['Journalist', 3],
        ['Jurist', 3],
        ['Politiker', 3],
        ['Schriftstellerin', 3],
      ],
    },
  },
  // label Schriftstellerin only, not Schriftsteller (gen.py)
  {
    name: 'filter is exact, not a token match: person_occupation_fct=Schriftstellerin',
    q: 'Wien',
    params: { person_occupation_fct: 'Schriftstellerin' },
    total: 6,
    ids: ['101843305', '1038087945', '118570404', '118758160', '118950150', '120053721'],
  },
  // folded preferredName ascending, first 20 (gen.py)
  {
    name: 'sort ALPHA_ASC: Schriftsteller',
    q: 'Schriftsteller',
    params: { sort: 'ALPHA_ASC' },
    total: 363,
    page: [
      '122051998',
      '118624636',
      '105413542',
      '118588605',
      '118555081',
      '118638971',
      '118778242',
      '127957731',
      '119470950',
      '116395257',
      '116471557',
      '118571990',
      '116941359',
      '126802491',
      '104279702',
      '118567365',
      '119538857',
      '117469599',
      '118671448',
      '118557548',
    ],
    // page begins: Adolf J. Storfer, Adrien Turel, Albert Ehrismann, Albert Norden, ...
  },
  // folded preferredName descending (gen.py)
  {
    name: 'sort ALPHA_DESC: Journalist',
    q: 'Journalist',
    params: { sort: 'ALPHA_DESC' },
    total: 101,
    page: [
      '119269899',
      '107669773',
      '1030230269',
      '118757695',
      '118507958',
      '118550578',
      '138105804',
      '118542664',
      '125805616',
      '1029741859',
      '116317485',
      '119545063',
      '137771657',
      '136573746',
      '118547143',
      '118833197',
      '119073714',
      '118580752',
      '123562155',
      '118749587',
    ],
    // page begins: Will Schaber, Wilhelm Warschatka, Wilhelm Riepekohl, Wilhelm E. Süskind, ...
  },
  // same order as ALPHA_ASC here (gen.py)
  {
    name: 'sort COUNT_DESC: all counts 0, then folded name: Philosoph',
    q: 'Philosoph',
    params: { sort: 'COUNT_DESC' },
    total: 44,
    page: [
      '118671448',
      '117754692',
      '129320811',
      '116219351',
      '116993855',
      '121043983',
      '118682024',
      '124501931',
      '138736944',
      '116309148',
      '118535560',
      '101260865',
      '118801112',
      '120409712',
      '118640224',
      '118682644',
      '118569333',
      '118530380',
      '116659998',
      '118594982',
    ],
    // page begins: Alois Dempf, Amadeo Silva-Tarouca, Anton Maxsein, Arthur Drews, ...
  },
  // same as ALPHA_DESC (gen.py)
  {
    name: 'sort is case-insensitive: sort=alpha_desc',
    q: 'Wien',
    params: { sort: 'alpha_desc' },
    total: 33,
    page: [
      '118753088',
      '101843305',
      '118599216',
      '118637479',
      '118542664',
      '116644036',
      '116754796',
      '116287128',
      '107024640',
      '1019108444',
      '118547143',
      '118587420',
      '122231287',
      '173102670',
      '118562940',
      '118516477',
      '118714023',
      '118554905',
      '118950150',
      '1038087945',
    ],
    // page begins: Walter Johannes Stein, Therese Schlesinger-Eckstein, Theodor Reik, Stefan Zweig, ...
  },
  // 30 match (gender "Mann"); Heinrich Mann is the exact name (gen.py)
  {
    name: 'RELEVANCE: exact preferred name first: Heinrich Mann',
    q: 'Heinrich Mann',
    total: 30,
    set: true, // the full set is in expected/ids.json
    firstDoc: '118577131', // Heinrich Mann
  },
  // Karl Vogt and Karl Anton Vogt match (gen.py)
  {
    name: 'RELEVANCE: exact preferred name first: Karl Vogt',
    q: 'Karl Vogt',
    total: 2,
    ids: ['107646390', '117468266'], // Karl Anton Vogt, Karl Vogt
    firstDoc: '117468266', // Karl Vogt
  },
  // Benjamin, Walter Benjamin, Ben B. Lindsey (variant) match (gen.py)
  {
    name: 'RELEVANCE: exact preferred name first: Benjamin',
    q: 'Benjamin',
    total: 3,
    ids: ['117031003', '118509039', '127399631'], // Ben B. Lindsey, Walter Benjamin, Benjamin
    firstDoc: '127399631', // Benjamin
  },
  // Georg Engel (earlier in the file) and Johannes Engel match (gen.py)
  {
    name: 'RELEVANCE: exact preferred name first: Johannes Engel',
    q: 'Johannes Engel',
    total: 2,
    ids: ['1037695518', '116487054'], // Johannes Engel, Georg Engel
    firstDoc: '1037695518', // Johannes Engel
  },
  // positions 40..49 of the full alphabetical order (gen.py)
  {
    name: 'paging: offset=40 rows=10 over *:* ALPHA_ASC',
    q: '*:*',
    params: { sort: 'ALPHA_ASC', rows: '10', offset: '40' },
    total: 1222,
    page: [
      '126400644',
      '118555081',
      '118638971',
      '118778242',
      '127957731',
      '119470950',
      '119086948',
      '118751255',
      '133410005',
      '118905929',
    ],
    // page begins: Albin Walter Gerstner, Aldous Huxley, Aleksandr Aleksandrovič Fadeev, Aleksandr I. Kuprin, ...
  },
  // the last 7 of the full alphabetical order (gen.py)
  {
    name: 'paging: last page offset=1215 rows=20 ALPHA_ASC',
    q: '*:*',
    params: { sort: 'ALPHA_ASC', rows: '20', offset: '1215' },
    total: 1222,
    page: ['126627495', '126980519', '116483733', '118620045', '143148745', '127303421', '109960785'],
    // page begins: Wladimir Lidin, Wladimir Petrovič Stawski, Wolfgang Hoffmann Harnisch, Yat-sen Sun, ...
  },
  // numberOfResults stays 33 (gen.py)
  {
    name: 'paging: offset past the end gives no docs',
    q: 'Wien',
    params: { sort: 'ALPHA_ASC', offset: '100' },
    total: 33,
    page: [],
  },
  // positions 5..9 of Schriftstellerin by name descending (gen.py)
  {
    name: 'paging: rows=5 offset=5 ALPHA_DESC on a filter',
    q: '*:*',
    params: { sort: 'ALPHA_DESC', rows: '5', offset: '5', person_occupation_fct: 'Schriftstellerin' },
    total: 32,
    page: ['117633224', '118605526', '101148585', '116055774', '118794892'],
    // page begins: Regine Deutsch, Rahel Sanzara, Maximiliane Ackers, Marta Karlweis-Wassermann, ...
  },
];

/** The page size and offset a row asks for (defaults of docs/decisions.md "Paging and sorts": 20, 0). */
function paging(params: Params | undefined): { rows: number; offset: number } {
  const rows = params?.['rows'];
  const offset = params?.['offset'];
  return {
    rows: typeof rows === 'string' ? Number(rows) : 20,
    offset: typeof offset === 'string' ? Number(offset) : 0,
  };
}

async function checkRow(t: TestApp, row: Row): Promise<void> {
  const params = row.params ?? {};
  const body = await search(t, row.q, params);
  checkShape(body, params);
  assert.equal(body.numberOfResults, row.total, 'numberOfResults');
  const docs = docsOf(body);
  const { rows, offset } = paging(row.params);
  assert.equal(docs.length, Math.max(0, Math.min(rows, row.total - offset)), 'number of docs on the page');
  const got = docs.map((d) => gnd(d.id));
  if (row.ids) assert.deepEqual([...got].sort(), row.ids, 'the ids of all hits');
  if (row.page) assert.deepEqual(got, row.page, 'the ids of the page, in order');
  if (row.firstDoc !== undefined) assert.equal(got[0], row.firstDoc, 'the exact preferred-name match comes first');
  if (row.doc) {
    const doc = docs[0];
    assert.ok(doc, 'one doc');
    assert.deepEqual(Object.keys(doc), Object.keys(row.doc), 'doc keys in spec order');
    assert.deepEqual(doc, row.doc);
  }
  if (row.set) {
    const expected = EXPECTED_IDS[row.name];
    assert.ok(expected, `expected/ids.json has "${row.name}"`);
    const all = await search(t, row.q, { ...params, rows: '1000', offset: '0' });
    assert.equal(all.numberOfResults, row.total, 'numberOfResults with rows=1000');
    assert.deepEqual(
      docsOf(all)
        .map((d) => gnd(d.id))
        .sort(),
      expected,
      'the ids of all hits (rows=1000)',
    );
  }
  const facets = row.facets ?? (row.facetsFile ? EXPECTED_FACETS[row.name] : undefined) ?? {};
  if (row.facetsFile) assert.ok(EXPECTED_FACETS[row.name], `expected/facets.json has "${row.name}"`);
  for (const f of body.facets) {
    const want = facets[f.field] ?? [];
    assert.deepEqual(
      f.facetValues.map((v) => [v.value, v.count]),
      want,
      `facet ${f.field}: values by count descending, ties by value`,
    );
    assert.equal(f.numberOfFacets, want.length, `facet ${f.field}: numberOfFacets`);
  }
}

/** Follows nextCursorMark from "*" until it comes back unchanged; all docs in order. */
async function cursorWalk(t: TestApp, q: string, params: Params): Promise<{ docs: ReturnType<typeof docsOf>; pages: number }> {
  let mark = '*';
  const docs: ReturnType<typeof docsOf> = [];
  let total: number | undefined;
  for (let pages = 1; pages <= 200; pages++) {
    const sent = { ...params, cursorMark: mark };
    const body = await search(t, q, sent);
    checkShape(body, sent);
    if (total === undefined) total = body.numberOfResults;
    assert.equal(body.numberOfResults, total, 'numberOfResults stays the same while paging');
    assert.equal(typeof body.nextCursorMark, 'string', 'nextCursorMark on every cursor page');
    docs.push(...docsOf(body));
    if (body.nextCursorMark === mark) return { docs, pages };
    assert.ok(docsOf(body).length > 0, 'a page that is not the last has docs');
    mark = body.nextCursorMark as string;
  }
  assert.fail('the cursor walk did not end within 200 pages');
}

for (const backend of BACKENDS) {
  describe(`[${backend.name}] GET /entities acceptance table (1,222 EntityFacts persons)`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(backend, { loadEntities: [EF_FILE] });
    });
    after(async () => {
      await t?.close();
    });

    for (const row of ROWS) {
      test(row.name, { todo: row.todo }, async () => {
        await checkRow(t, row);
      });
    }

    // The 14 hits of "Schriftsteller Wien" (row "default AND" above), in three seeded orders.
    test('sort RANDOM_<seed>: same seed same order, seed echoed, another seed another order', async () => {
      const q = 'Schriftsteller Wien';
      const expected = ROWS.find((r) => r.q === q)?.ids;
      assert.ok(expected);
      const a = await search(t, q, { sort: 'RANDOM_42' });
      const b = await search(t, q, { sort: 'RANDOM_42' });
      const c = await search(t, q, { sort: 'RANDOM_7' });
      for (const body of [a, b, c]) {
        checkShape(body, { sort: 'RANDOM' });
        assert.equal(body.numberOfResults, 14);
        assert.deepEqual(
          docsOf(body)
            .map((d) => gnd(d.id))
            .sort(),
          expected,
          'the same set in any order',
        );
      }
      assert.equal(a.randomSeed, '42');
      assert.equal(c.randomSeed, '7');
      const order = (body: typeof a) => docsOf(body).map((d) => gnd(d.id));
      assert.deepEqual(order(b), order(a), 'same seed, same order');
      assert.notDeepEqual(order(c), order(a), 'another seed, another order');
      // Stable across pages: offset 0 and 7 with rows=7 give the rows=20 order.
      const p1 = await search(t, q, { sort: 'RANDOM_42', rows: '7' });
      const p2 = await search(t, q, { sort: 'RANDOM_42', rows: '7', offset: '7' });
      assert.deepEqual([...order(p1), ...order(p2)], order(a), 'pages of one seed join to the full order');
    });

    // expected/docs-alpha-asc.json: all 1,222 persons as docs, in ALPHA_ASC order (gen.py).
    test('cursor walk: *:* with rows=100 and ALPHA_ASC returns every person once, in order, mapped right', async () => {
      const { docs, pages } = await cursorWalk(t, '*:*', { rows: '100', sort: 'ALPHA_ASC' });
      const ids = docs.map((d) => gnd(d.id));
      assert.equal(new Set(ids).size, ids.length, 'no id twice');
      assert.equal(ids.length, 1222, 'every person');
      assert.ok(pages >= 13, `13 pages of 100 at least (got ${pages})`);
      assert.deepEqual(
        ids,
        DOCS_ALPHA_ASC.map((d) => gnd(d.id)),
        'the full ALPHA_ASC order',
      );
      for (const doc of docs) checkDoc(doc);
    });

    // expected/schriftsteller.json: the 363 persons with token "schriftsteller" (gen.py).
    test('cursor walk: Schriftsteller with rows=37 and RELEVANCE returns every hit once', async () => {
      const { docs, pages } = await cursorWalk(t, 'Schriftsteller', { rows: '37', sort: 'RELEVANCE' });
      const ids = docs.map((d) => gnd(d.id));
      assert.equal(new Set(ids).size, ids.length, 'no id twice');
      assert.equal(ids.length, 363, 'numberOfResults hits');
      assert.ok(pages >= 10, `10 pages of 37 at least (got ${pages})`);
      assert.deepEqual([...ids].sort(), SCHRIFTSTELLER_IDS);
    });
  });
}
