/**
 * The item package as a search document and a result doc (src/search/schemas/itemDocument.ts), on
 * every real fixture package: the cortex packages and the packages
 * buildPackage.ts makes of the EDM records (itemFixtures.ts). Whole documents for three
 * packages, with every expected value read off the package by hand; then all packages in
 * the real SearchIndex and a table of queries whose hits were read off the data.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { parseQuery } from '../../src/query/parse.js';
import { itemDocuments, itemDocumentsFromJson, itemDocumentsFromXml, type ItemDocuments } from '../../src/search/schemas/itemDocument.js';
import { SearchIndex } from '../../src/search/engine/SearchIndex.js';
import { queryFields } from '../../src/search/engine/schema.js';
import { itemSchema } from '../../src/search/schemas/itemSchema.js';
import { ITEM_FACETS } from '../../src/domain/itemFacets.js';
import type { SearchRequest } from '../../src/search/engine/types.js';
import { cortexPackages, edmPackages, type FixturePackage } from './itemFixtures.js';

const FAR = () => Date.now() + 60_000;
const GOETHE_HAUS = 'Frankfurter Goethe-Haus. Freies Deutsches Hochstift';
/** The description of 4XUD… (view index field `description`, = edm dc:description), decoded. */
const CORNELIE_DESCRIPTION =
  'Porträt Cornelias (1750-1777), der lediglich 15 Monate jüngeren Schwester Goethes. Vor einer Täfelung stehend, ist sie im Dreiviertelprofil und in zeitgenösssicher Mode dargestellt; darüber hinaus hält sie ein Buch in Händen. Bezeichnet: Gestochen unter der Darstellung links "Fr. Pecht del"; gestochen unter der Darstellung rechts "L. Sichling sculp"; darunter mittig "Cornelie Goethe", darunter "Druck und Verlag von F.A. Brockhaus in Leipzig." Erschienen in: Pecht, Friedrich: Goethe-Galerie. Charaktere aus Goethe\'s Werken, Leipzig 1864.';

let cortex: FixturePackage[] = [];
let edm: FixturePackage[] = [];
const docsOf = (p: FixturePackage): ItemDocuments => itemDocuments(JSON.parse(p.item.json), p.item.id);
const find = (list: FixturePackage[], source: string): FixturePackage => {
  const p = list.find((x) => x.source === source);
  assert.ok(p, `fixture ${source}`);
  return p;
};

before(async () => {
  cortex = cortexPackages();
  edm = await edmPackages();
});

describe('item documents of every fixture package', () => {
  it('reads the 5 cortex packages and the 1,376 packages built from EDM records', () => {
    assert.equal(cortex.length, 5);
    assert.equal(edm.length, 1376);
  });

  it('gives each package a document with its id, its title, its media type and only schema fields', () => {
    const textFields = itemSchema.text.map((f) => f.name).sort();
    for (const p of [...cortex, ...edm]) {
      const { search, result } = docsOf(p);
      assert.equal(search.id, p.item.id, p.source);
      assert.equal(result.id, p.item.id, p.source);
      // Every fixture package has a title in its preview and one media type.
      assert.notEqual(result.title, '', p.source);
      assert.equal(search.text.title?.length, 1, p.source);
      assert.equal(search.facets.type_fct?.length, 1, p.source);
      assert.match(search.facets.type_fct[0]!, /^mediatype_00\d$/, p.source);
      assert.deepEqual(Object.keys(search.text).sort(), textFields, p.source);
      for (const facet of Object.keys(search.facets))
        assert.ok((ITEM_FACETS as readonly string[]).includes(facet), `${p.source}: ${facet}`);
      assert.deepEqual(search.facets.has_media_fct, [/<binary\b/.test(p.item.xml) ? 'true' : 'false'], p.source);
      // A begin_time where the view has one, and it comes with an end_time no earlier.
      const begin = search.numbers.begin_time;
      const end = search.numbers.end_time;
      assert.equal(begin === null, !p.item.xml.includes('id="begin_time"') && !p.item.json.includes('"id":"begin_time"'), p.source);
      if (begin != null && end != null) assert.ok(begin <= end, p.source);
    }
  });

  it('gives the same documents from the cortex XML as from the stored JSON', () => {
    for (const p of [...cortex, ...edm.filter((_, i) => i % 25 === 0)]) {
      assert.deepEqual(itemDocumentsFromXml(p.item.xml), docsOf(p), p.source);
      assert.deepEqual(itemDocumentsFromJson(p.item.json), docsOf(p), p.source);
    }
  });
});

describe('whole documents, read off the packages by hand', () => {
  it('4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22 (real cortex XML, older generation)', () => {
    assert.deepEqual(docsOf(find(cortex, 'cortex/4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22.xml')), {
      search: {
        id: '4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22', // properties/item-id
        text: {
          title: ['Cornelie Goethe'], // view fields[@usage=index] field[@id=title]
          subtitle: ['Druckgraphik'], // preview/subtitle
          keywords: ['Kunstsammlung', 'Druckgraphik'], // keywords_fct, Druckgraphik written twice
          affiliate: ['Sichling, Lazarus Gottlieb', 'Pecht, August Friedrich', 'Goethe, Cornelia'], // affiliate_fct
          description: [CORNELIE_DESCRIPTION], // index field description
          place: ['Leipzig', '60311 Frankfurt am Main'], // place_fct
          ranking: ['Druckgraphik', 'Kunstsammlung', CORNELIE_DESCRIPTION], // index field ranking, three values
          provider: [GOETHE_HAUS], // provider_fct, written twice
        },
        facets: {
          // The profile's facets in its order; apd_keywords_fct too; last_update is no facet.
          time_fct: ['time_61900', 'time_61947', 'time_61975'],
          place_fct_normdata: ['http://d-nb.info/gnd/4035206-7'],
          place_fct: ['Leipzig', '60311 Frankfurt am Main'],
          affiliate_fct_normdata: ['http://d-nb.info/gnd/117466034', 'http://d-nb.info/gnd/118592343', 'http://d-nb.info/gnd/11871791X'],
          affiliate_fct_role_normdata: [
            'http://d-nb.info/gnd/117466034',
            'http://d-nb.info/gnd/118592343',
            'http://d-nb.info/gnd/11871791X',
            'http://d-nb.info/gnd/11871791X_1_affiliate_fct_subject',
            'http://d-nb.info/gnd/117466034_1_affiliate_fct_involved',
            'http://d-nb.info/gnd/118592343_1_affiliate_fct_involved',
          ],
          affiliate_fct: ['Sichling, Lazarus Gottlieb', 'Pecht, August Friedrich', 'Goethe, Cornelia'],
          affiliate_fct_role: [
            'Sichling, Lazarus Gottlieb',
            'Pecht, August Friedrich',
            'Goethe, Cornelia',
            'Goethe, Cornelia_1_affiliate_fct_subject',
            'Sichling, Lazarus Gottlieb_1_affiliate_fct_involved',
            'Pecht, August Friedrich_1_affiliate_fct_involved',
          ],
          // From the role values of affiliate_fct_role, in their order.
          affiliate_fct_subject: ['Goethe, Cornelia'],
          affiliate_fct_involved: ['Sichling, Lazarus Gottlieb', 'Pecht, August Friedrich'],
          keywords_fct: ['Kunstsammlung', 'Druckgraphik'],
          keywords_fct_normdata: ['http://d-nb.info/gnd/4113357-2'],
          type_fct: ['mediatype_002'],
          sector_fct: ['sec_06'],
          provider_fct: [GOETHE_HAUS],
          apd_keywords_fct: ['Druckgraphik'],
          has_media_fct: ['true'], // five <binary> elements
          license: ['http://creativecommons.org/licenses/by-nc-sa/4.0/'], // index field license
          license_group: ['rights_002'], // index field license_group
        },
        numbers: { begin_time: 680449, end_time: 685562, geocode_0_coordinate: null, geocode_1_coordinate: null }, // index fields begin_time, end_time
        sort: { title: 'cornelie goethe', begin_time: 680449 },
      },
      result: {
        id: '4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22',
        title: 'Cornelie Goethe', // preview/title
        subtitle: 'Druckgraphik', // preview/subtitle
        label: 'Cornelie Goethe', // view/item/label
        thumbnail: '/binary/4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22/list/1.jpg', // preview/thumbnail/@href
        media: 'image', // preview/@media
        category: 'Kultur', // view/item/category
        type: 'Kultur', // preview/@type
        latitude: '', // view/item/latitude, empty
        longitude: '',
      },
    });
  });

  it('23MBRVVDUHBFZNDCTK4SQM7KROKGVGNF (multi_uri.json: newer generation, two URIs in one normdata value)', () => {
    const descriptions = [
      'Typ: Comment auf Lärmschutzwand',
      'Buchstabenstil: Tag Style',
      'Zeichentyp: Buchstaben',
      'Funktion: Namennennung',
    ];
    const paderborn = ['Universität Paderborn. Institut für Germanistik und Vergleichende Literaturwissenschaft', 'Universität Paderborn'];
    const org = 'http://www.deutsche-digitale-bibliothek.de/organization/';
    assert.deepEqual(docsOf(find(cortex, 'cortex/multi_uri.json')), {
      search: {
        id: '23MBRVVDUHBFZNDCTK4SQM7KROKGVGNF', // properties.item-id
        text: {
          title: ['WiE DiE FAuSt AUF'], // view.item.fields[usage=index] field id=title, value[0].content
          subtitle: ['Graffiti; Streetart'], // preview.subtitle
          keywords: ['Graffiti', 'Streetart'], // keywords_fct (not the _autocomplete copy)
          affiliate: [], // no affiliate_fct
          // The index field with id flex_mus_neu_050 and name "description": four values' content.
          description: descriptions,
          place: ['Essen', 'Paderborn'], // place_fct
          ranking: descriptions, // index field id=ranking repeats them
          provider: paderborn, // provider_fct
        },
        facets: {
          place_fct: ['Essen', 'Paderborn'],
          // One value "http://d-nb.info/gnd/4044283-4 https://www.geonames.org/2855745" in the package.
          place_fct_normdata: ['http://d-nb.info/gnd/4044283-4', 'https://www.geonames.org/2855745'],
          keywords_fct: ['Graffiti', 'Streetart'],
          keywords_fct_normdata: ['http://d-nb.info/gnd/4021791-7', 'http://d-nb.info/gnd/7581172-8'],
          objecttype_fct: ['Graffiti', 'Streetart'],
          objecttype_fct_normdata: ['http://d-nb.info/gnd/4021791-7', 'http://d-nb.info/gnd/7581172-8'],
          type_fct: ['mediatype_002'],
          provider_fct: paderborn,
          provider_fct_normdata: [`${org}Y4U5WTWIXQYY4P2DWZLZYH3Z4ETTJ336`, `${org}RU5JET3R7GM7EUCGFRDLOREV343CGWXL`],
          dataprovider_fct: [paderborn[0]!],
          dataprovider_fct_normdata: [`${org}Y4U5WTWIXQYY4P2DWZLZYH3Z4ETTJ336`],
          sector_fct: ['sec_04'],
          has_media_fct: ['true'], // binaries.binary: one, with a ref
          license: ['http://creativecommons.org/licenses/by-sa/4.0/'], // view.item.license.resource
          license_group: ['rights_002'], // a CC licence: reuse with conditions (binaries.binary.license_group says so too)
        },
        // Index fields begin_time and end_time: both 730172, for the display field "(wann)" 21.02.2000.
        // By timeVocabulary.dayNumber that day is 730173: the newer generation counts one day
        // less (midnight in Berlin taken in UTC; bare_id.json's 2018 begins at 736696 too).
        numbers: { begin_time: 730172, end_time: 730172, geocode_0_coordinate: null, geocode_1_coordinate: null },
        sort: { title: 'wie die faust auf', begin_time: 730172 },
      },
      result: {
        id: '23MBRVVDUHBFZNDCTK4SQM7KROKGVGNF',
        title: 'WiE DiE FAuSt AUF', // preview.title
        subtitle: 'Graffiti; Streetart',
        label: 'WiE DiE FAuSt AUF', // view.item.label
        thumbnail: '775b6d91-e28e-41af-b71a-9f6e15626477', // preview.thumbnail.href: a binary ref in this generation
        media: 'image', // preview.media (an element here, not an attribute)
        category: 'Kultur', // view.item.category
        type: 'Kultur', // preview.type
        latitude: '',
        longitude: '',
      },
    });
  });

  it('TUDVNP6I2PTCLZEABBM34RV6ZVJDFV6H (built from the HOPE record Item_35834473.xml)', () => {
    // The record: dc:title "Combat (1974)13", dc:type "item", dc:subject three HOPE concepts,
    // dc:language fr, dcterms:issued 1974, edm:dataProvider Amsab-ISG, edm:provider HOPE,
    // edm:type TEXT, one edm:isShownBy (a file with no known extension: .bin).
    const keywords = [
      'Syndicalism/Trade Unions',
      'Socialist and social democrat parties/Socialist International',
      'Workers movements/Workers councils/Workers International organizations',
    ];
    const providers = ['Amsab-Institute of Social History', "HOPE - Heritage of the People's Europe"];
    assert.deepEqual(docsOf(find(edm, 'edm/hope-combat/Item_35834473.xml#1')), {
      search: {
        id: 'TUDVNP6I2PTCLZEABBM34RV6ZVJDFV6H',
        text: {
          title: ['Combat (1974)13'],
          subtitle: ['item'],
          keywords,
          affiliate: [],
          description: [],
          place: [],
          ranking: [],
          provider: providers,
        },
        facets: {
          time_fct: ['time_62000', 'time_62080'], // 1974: the 20th century and its 1970s
          keywords_fct: keywords,
          language_fct: ['fre'],
          type_fct: ['mediatype_003'], // edm:type TEXT
          provider_fct: providers,
          has_media_fct: ['true'],
          license: ['http://www.europeana.eu/rights/rr-f/'], // edm:rights of the aggregation
          license_group: ['rights_003'], // rights reserved: reuse only with permission
        },
        // 1974-01-01 and 1974-12-31 as day numbers: 720626 + 364 = 720990.
        numbers: { begin_time: 720626, end_time: 720990, geocode_0_coordinate: null, geocode_1_coordinate: null },
        sort: { title: 'combat (1974)13', begin_time: 720626 },
      },
      result: {
        id: 'TUDVNP6I2PTCLZEABBM34RV6ZVJDFV6H',
        title: 'Combat (1974)13',
        subtitle: 'item',
        label: 'Combat (1974)13',
        thumbnail: '/binary/TUDVNP6I2PTCLZEABBM34RV6ZVJDFV6H/list/1.bin',
        media: 'text',
        category: 'Kultur',
        type: 'Kultur',
        latitude: '',
        longitude: '',
      },
    });
  });
});

describe('a package missing a part, or with a part of another shape', () => {
  const EMPTY_TEXT = Object.fromEntries(itemSchema.text.map((f) => [f.name, []]));
  const empty = (id: string): ItemDocuments => ({
    search: {
      id,
      text: EMPTY_TEXT,
      facets: { has_media_fct: ['false'] },
      numbers: { begin_time: null, end_time: null, geocode_0_coordinate: null, geocode_1_coordinate: null },
      sort: { title: null, begin_time: null },
    },
    result: { id, title: '', subtitle: '', label: '', thumbnail: '', media: '', category: '', type: '', latitude: '', longitude: '' },
  });

  it('gives the stored id and nothing else for no package at all', () => {
    for (const pkg of [undefined, null, '', 'text', 42, true, [], {}, [{}]])
      assert.deepEqual(itemDocuments(pkg, 'STORED'), empty('STORED'), JSON.stringify(pkg));
    assert.deepEqual(itemDocumentsFromXml('<cortex><preview>', 'STORED'), empty('STORED'));
    assert.deepEqual(itemDocumentsFromJson('{"properties":', 'STORED'), empty('STORED'));
  });

  it('keeps what the rest of the package has, whatever one part is', () => {
    const p = find(cortex, 'cortex/4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22.xml');
    const whole = docsOf(p);
    const pkg = JSON.parse(p.item.json) as Record<string, unknown>;
    for (const part of Object.keys(pkg)) {
      for (const odd of [
        undefined,
        null,
        '',
        'x',
        0,
        [],
        {},
        [null, 1, 'x', {}],
        { facet: [null, { value: 'v' }, { '@name': 'place_fct' }] },
      ]) {
        const docs = itemDocuments({ ...pkg, [part]: odd }, 'STORED');
        // indexing-profile/item-id stands in for properties/item-id, and the other way round.
        assert.equal(docs.search.id, whole.search.id, `${part} = ${JSON.stringify(odd)}`);
        if (part === 'preview') assert.equal(docs.result.title, 'Cornelie Goethe'); // view/item/title stands in
        if (part === 'indexing-profile') assert.deepEqual(docs.search.text.title, ['Cornelie Goethe']);
        if (part === 'view') assert.deepEqual(docs.search.facets.place_fct, ['Leipzig', '60311 Frankfurt am Main']);
        if (part === 'binaries') assert.deepEqual(docs.search.facets.has_media_fct, ['false']);
      }
    }
    // Without properties and indexing-profile the stored id is the id.
    assert.equal(itemDocuments({ ...pkg, properties: undefined, 'indexing-profile': undefined }, 'STORED').search.id, 'STORED');
  });
});

describe('all fixture packages in the real SearchIndex', () => {
  let index: SearchIndex;
  before(() => {
    index = new SearchIndex(itemSchema);
    // Upserts in fixture order: 205 MIMO objects come in two or three files each (the
    // same item id), and the last one read stays, as a load would leave it.
    for (const p of [...cortex, ...edm]) index.upsert(docsOf(p).search);
  });

  const fields = queryFields(itemSchema);
  const request = (query: string, extra: Partial<SearchRequest> = {}): SearchRequest => ({
    query: parseQuery(query, { fields }),
    sort: { kind: 'id', descending: false },
    offset: 0,
    rows: 100,
    ...extra,
  });
  const hits = (query: string, extra: Partial<SearchRequest> = {}) => index.search(request(query, extra), FAR());

  // Expected values were read off the packages independently of the mapping: every package
  // written out as XML and read with Python's xml.etree (facet values, index fields, preview).
  const CORNELIE = '4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22';
  const GOETHE = 'TNPFDKO2VDGBZ72RWC6RKDNZYZQZP3XK'; // goethe.json

  it('holds 1,001 distinct items', () => {
    assert.equal(index.size, 1001);
  });

  it('answers the query table', () => {
    const table: Array<[query: string, extra: Partial<SearchRequest>, ids: string[]]> = [
      // A title word: "Cornelie Goethe" and "Goethe", and no EDM title has the word.
      ['title:goethe', {}, [CORNELIE, GOETHE]],
      // Not in a title but in every affiliate_fct of both: "Pecht, August Friedrich".
      ['affiliate:pecht', {}, [CORNELIE, GOETHE]],
      ['affiliate_fct_involved:"Pecht, August Friedrich"', {}, [CORNELIE, GOETHE]],
      // Goethe as the subject in goethe.json (bare_id.json writes him "Johann Wolfgang von Goethe").
      ['affiliate_fct_subject:"Goethe, Johann Wolfgang von"', {}, [GOETHE]],
      // place_fct Leipzig: the two Goethe-Haus prints and three MIMO instruments (Leipzig museum).
      [
        '*:*',
        { filters: { place_fct: ['Leipzig'] } },
        [CORNELIE, '6EALM4KIV4WJWTNU3TYEGS74GH7DOWTV', 'FYON5BGS7BTGJERGZ6C3XTPREGTRBQFZ', 'LETGGG5OYOQA37LTOSC52DBOIU5ISRIN', GOETHE],
      ],
      [
        'place_fct:"Leipzig"',
        {},
        [CORNELIE, '6EALM4KIV4WJWTNU3TYEGS74GH7DOWTV', 'FYON5BGS7BTGJERGZ6C3XTPREGTRBQFZ', 'LETGGG5OYOQA37LTOSC52DBOIU5ISRIN', GOETHE],
      ],
      // One of the two URIs of multi_uri.json's place_fct_normdata value.
      ['place_fct_normdata:"https://www.geonames.org/2855745"', {}, ['23MBRVVDUHBFZNDCTK4SQM7KROKGVGNF']],
      // begin_time from 680000 (1862-10-09) to 690000 (1890-02-24): 18 items.
      [
        'begin_time:[680000 TO 690000]',
        {},
        [
          CORNELIE,
          '7BAREQGTFSWRORSQ26M4B5BKHXMQBRCL',
          'AA5FYL62SVIGK5QDVKNAZJ4UO4UGJSY6',
          'DEUELYO6KGZ4UIV6HTMNI7IYG3JYU4RU',
          'DUR4I7LNNABTYGCMIT5X4HLW7NYZKZYK',
          'EWT2AKCNGK6JL6YKNZY5O2QSYJJCWIIN',
          'FYON5BGS7BTGJERGZ6C3XTPREGTRBQFZ',
          'GU4GC5YIYBNNEOCQEIH44ZSOTS3NDK7B',
          'KOVK7FIIKG35MOQBGGXEAGTLKOCRQRR2',
          'NDLH72HCKSYQTG57QMIYK4G2QDSREXNA',
          'NLGMH6CGO3YA22ZQMIAFFILFSZRSC6K5',
          'PWWCJWKUR627VZVB2CIHAOKSGVTLPWQT',
          'QVOYDILVL4CVRREAABJJSK53FXNSNANQ',
          'SY2MIHRJJVMT2RTSFG5KBI6LITEDV6JU',
          GOETHE,
          'VLYGFESZVYFUKR2LMM2H6VRCSHFBBI5H',
          'VYM6A32HW3H6XHDHM5A35CLWR7LISAIF',
          'X4KJTBNEILF6VEBNJJAY3BX5IYQY24YC',
        ],
      ],
      // The 19th century by its time_fct code and the print's decades.
      ['time_fct:"time_61947" AND title:goethe', {}, [CORNELIE, GOETHE]],
    ];
    for (const [query, extra, ids] of table) {
      const r = hits(query, extra);
      assert.deepEqual(r.ids, ids, query);
      assert.equal(r.total, ids.length, query);
    }
  });

  it('counts the type, sector and has-media facets over everything', () => {
    const r = hits('*:*', {
      rows: 0,
      facets: ['type_fct', 'sector_fct', 'has_media_fct'].map((field) => ({ field, limit: -1, mincount: 1, sort: 'count' as const })),
    });
    assert.equal(r.total, 1001);
    assert.deepEqual(r.facets, [
      {
        field: 'type_fct',
        values: [
          { value: 'mediatype_003', count: 788 },
          { value: 'mediatype_002', count: 213 },
        ],
      },
      // The five real packages name their sector; without a providers file an EDM record's comes from
      // its data provider's name: the 209 MIMO museums' and the Slovenian library's, not Amsab's 786.
      {
        field: 'sector_fct',
        values: [
          { value: 'sec_06', count: 211 },
          { value: 'sec_02', count: 2 },
          { value: 'sec_04', count: 1 },
          { value: 'sec_05', count: 1 },
        ],
      },
      // 17 EDM-built packages list no binaries.
      {
        field: 'has_media_fct',
        values: [
          { value: 'true', count: 984 },
          { value: 'false', count: 17 },
        ],
      },
    ]);
  });

  it('counts and filters the licence facets: the DDB group where a package names it, else the group of its URI', () => {
    // The 786 HOPE records say edm:rights rr-f, the 209 MIMO objects CC BY-NC-SA 3.0, the
    // Europeana sample record the Public Domain Mark (grep of the fixtures); the five real
    // packages name theirs in their view.
    const LICENSE_COUNTS = { rr: 786, byncsa3: 209 };
    const licenses = hits('*:*', {
      rows: 0,
      facets: ['license_group', 'license'].map((field) => ({ field, limit: -1, mincount: 1, sort: 'count' as const })),
    });
    assert.deepEqual(licenses.facets, [
      {
        field: 'license_group',
        values: [
          { value: 'rights_003', count: LICENSE_COUNTS.rr + 1 },
          { value: 'rights_002', count: LICENSE_COUNTS.byncsa3 + 3 },
          { value: 'rights_001', count: 2 },
        ],
      },
      {
        field: 'license',
        values: [
          { value: 'http://www.europeana.eu/rights/rr-f/', count: LICENSE_COUNTS.rr },
          { value: 'http://creativecommons.org/licenses/by-nc-sa/3.0/', count: LICENSE_COUNTS.byncsa3 },
          { value: 'http://creativecommons.org/licenses/by-nc-sa/4.0/', count: 2 },
          { value: 'http://creativecommons.org/publicdomain/mark/1.0/', count: 2 },
          { value: 'http://creativecommons.org/licenses/by-sa/4.0/', count: 1 },
          { value: 'http://rightsstatements.org/vocab/InC/1.0/', count: 1 },
        ],
      },
    ]);
    // The reusable ones: free, or free on conditions.
    const reusable = hits('*:*', { rows: 3, filters: { license_group: ['rights_001', 'rights_002'] } });
    assert.equal(reusable.total, LICENSE_COUNTS.byncsa3 + 5);
    assert.deepEqual(hits('license:"http://creativecommons.org/publicdomain/mark/1.0/" AND license_group:rights_001', {}).total, 2);
  });
});
