// The IIIF Presentation 3.0 manifest built from real packages (docs/api.md "GET /items/{id}/iiif"):
// packages loaded by the real ingest into a real store and read back in their JSON
// form, as the route reads them. Expected values were read off the fixture files by
// hand; the comment next to each says where. Every manifest is also checked against
// test/fixtures/iiif-presentation-3-structure.schema.json (rules written from the
// specification; no npm package ships the official schema).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildManifest, canvasSources, packageBinaries, type ManifestInput } from '../../src/http/bodies/iiifManifest.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import type { ImageSize } from '../../src/media/mediaDirectory.js';
import type { ItemChange } from '../../src/store/Store.js';
import { BACKENDS } from '../helpers/backends.js';
import { iiifProblems } from '../helpers/iiifSchema.js';
import { writePackages } from '../helpers/packages.js';
import { CHAPTER_ID, CORTEX_DIR, FIXTURES, OTHER_CORTEX_ID } from '../helpers/paths.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- IIIF bodies are read as parsed JSON; the schema test types them
type Json = Record<string, any>;

const SERVICE = 'https://api.example.org';
const FLUTE_ID = 'QOYTRJ4576TP7OAF2AXW2ORLMBTWZDGL'; // MIMO record76, six views (buildPackageMimo.test.ts)
const FLUTE = `${FIXTURES}items/edm/mimo/09102_Ag_EU_MIMO_EDM_record76.xml`;
const ALBUM_ID = '222NZKK63TNRLC2VETRV722VKBDSUVGL'; // bare_id.json, a package of the newer generation

/** Loads the files with the real ingest and returns every loaded package's JSON form by id. */
async function load(paths: string[]): Promise<Map<string, Json>> {
  const opened = await BACKENDS[0]!.open();
  try {
    const ids = new Set<string>();
    // The real store; only the ids of what the ingest writes are noted on the way.
    const noting = new Proxy(opened.store, {
      get(target, prop) {
        if (prop === 'applyItemChanges') {
          return async (changes: readonly ItemChange[]) => {
            for (const c of changes) if (c.kind === 'upsert') ids.add(c.item.id);
            return await target.applyItemChanges(changes);
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const summary = await ingestItems(noting, paths, { batchSize: 500 });
    assert.deepEqual(summary.problems, []);
    const out = new Map<string, Json>();
    for (const id of ids) out.set(id, JSON.parse((await opened.store.getItemDocument(id, 'json'))!.body.toString('utf8')));
    return out;
  } finally {
    await opened.dispose();
  }
}

const loaded = load([CORTEX_DIR, FLUTE]);

async function pkg(id: string): Promise<Json> {
  const found = (await loaded).get(id);
  assert.ok(found, `${id} is loaded`);
  return structuredClone(found);
}

function manifest(itemId: string, p: Json, media: Array<[string, ImageSize | null]> = []): Json {
  const input: ManifestInput = {
    itemId,
    pkg: p,
    manifestUrl: `${SERVICE}/items/${itemId}/iiif`,
    serviceUrl: SERVICE,
    media: new Map(media),
  };
  return buildManifest(input);
}

test(`${CHAPTER_ID} (cortex 2014, one position in four variants): the whole manifest`, async () => {
  const m = manifest(CHAPTER_ID, await pkg(CHAPTER_ID));
  const base = `${SERVICE}/items/${CHAPTER_ID}/iiif`;
  assert.deepEqual(m, {
    '@context': 'http://iiif.io/api/presentation/3/context.json',
    id: base,
    type: 'Manifest',
    label: { none: ['XI. * * *'] }, // view/item/title
    summary: { none: ['Erschienen in: Beyträge zur Naturgeschichte; 1'] }, // view/item/subtitle
    metadata: [
      // the four fields of <ns4:fields usage="display">, in order
      { label: { none: ['Dokumenttyp'] }, value: { none: ['Kapitel'] } },
      { label: { none: ['Erschienen in'] }, value: { none: ['Beyträge zur Naturgeschichte; 1'] } },
      { label: { none: ['Standort'] }, value: { none: ['Niedersächsische Staats- und Universitätsbibliothek Göttingen'] } },
      { label: { none: ['Förderung'] }, value: { none: ['Deutsche Forschungsgemeinschaft'] } },
      // <ns4:license ns3:resource=".../publicdomain/mark/1.0/">Weltweit frei ...</ns4:license>
      {
        label: { en: ['License'], de: ['Lizenz'] },
        value: {
          none: ['Weltweit frei von bekannten urheberrechtlichen Einschränkungen', 'http://creativecommons.org/publicdomain/mark/1.0/'],
        },
      },
    ],
    // view rights is empty; the binary's name2; the view's institution name
    requiredStatement: {
      label: { en: ['Attribution'], de: ['Rechtehinweis'] },
      value: { none: ['Digitalisat: GDZ', 'Niedersächsische Staats- und Universitätsbibliothek Göttingen'] },
    },
    rights: 'http://creativecommons.org/publicdomain/mark/1.0/',
    provider: [
      {
        id: 'http://www.sub.uni-goettingen.de', // view/item/institution/url
        type: 'Agent',
        label: { none: ['Niedersächsische Staats- und Universitätsbibliothek Göttingen'] },
        homepage: [
          {
            id: 'http://www.sub.uni-goettingen.de',
            type: 'Text',
            label: { none: ['Niedersächsische Staats- und Universitätsbibliothek Göttingen'] },
            format: 'text/html',
          },
        ],
        logo: [
          {
            id: 'http://content.deutsche-digitale-bibliothek.de/binaries/institution-institutionen/20120720/edit/00000463/zvdd_logo.gif',
            type: 'Image',
          },
        ],
      },
    ],
    // view/item/origin
    homepage: [
      {
        id: 'http://gdz.sub.uni-goettingen.de/dms/load/img/?PPN=PPN667449868&DMDID=DMDLOG_0013',
        type: 'Text',
        label: { none: ['XI. * * *'] },
        format: 'text/html',
      },
    ],
    seeAlso: [
      {
        id: `${SERVICE}/items/${CHAPTER_ID}/aip`,
        type: 'Dataset',
        label: { en: ['Item package (DDB archival information package)'], de: ['Objektpaket (AIP der DDB)'] },
        format: 'application/json',
      },
    ],
    // the smallest variant of position 1: mvth
    thumbnail: [{ id: `${SERVICE}/binary/${CHAPTER_ID}/mvth/1.jpg`, type: 'Image', format: 'image/jpeg' }],
    start: { id: `${base}/canvas/1`, type: 'Canvas' },
    items: [
      {
        id: `${base}/canvas/1`,
        type: 'Canvas',
        label: { none: ['XI. * * *'] }, // the binary's name
        // no image in a media directory: the default size, and a body without one
        width: 1000,
        height: 1000,
        items: [
          {
            id: `${base}/canvas/1/page`,
            type: 'AnnotationPage',
            items: [
              {
                id: `${base}/canvas/1/page/painting`,
                type: 'Annotation',
                motivation: 'painting',
                // list, grid, mvth, mvpr and no full: mvpr is the largest listed
                body: { id: `${SERVICE}/binary/${CHAPTER_ID}/mvpr/1.jpg`, type: 'Image', format: 'image/jpeg' },
                target: `${base}/canvas/1`,
              },
            ],
          },
        ],
      },
    ],
  });
  assert.deepEqual(iiifProblems(m), []);
});

test(`${CHAPTER_ID}: a canvas paints the largest variant the media directory holds, at the image's size`, async () => {
  const m = manifest(CHAPTER_ID, await pkg(CHAPTER_ID), [[`/binary/${CHAPTER_ID}/list/1.jpg`, { width: 300, height: 200 }]]);
  const canvas = m.items[0];
  assert.equal(canvas.width, 300);
  assert.equal(canvas.height, 200);
  assert.deepEqual(canvas.items[0].items[0].body, {
    id: `${SERVICE}/binary/${CHAPTER_ID}/list/1.jpg`,
    type: 'Image',
    format: 'image/jpeg',
    width: 300,
    height: 200,
  });
  // Held but not an image whose size could be read: painted, at the default size.
  const unread = manifest(CHAPTER_ID, await pkg(CHAPTER_ID), [[`/binary/${CHAPTER_ID}/grid/1.jpg`, null]]);
  assert.deepEqual([unread.items[0].width, unread.items[0].height], [1000, 1000]);
  assert.deepEqual(unread.items[0].items[0].items[0].body, {
    id: `${SERVICE}/binary/${CHAPTER_ID}/grid/1.jpg`,
    type: 'Image',
    format: 'image/jpeg',
  });
  assert.deepEqual(iiifProblems(m), []);
});

test(`${OTHER_CORTEX_ID} (museum-digital): rights, attribution lines, markup left out of the metadata`, async () => {
  const m = manifest(OTHER_CORTEX_ID, await pkg(OTHER_CORTEX_ID));
  assert.equal(m.rights, 'http://creativecommons.org/licenses/by-nc-sa/4.0/'); // <ns4:license ns3:resource=...>
  assert.deepEqual(m.requiredStatement.value, {
    none: [
      // The source has U+0095 between the names (a Windows-1252 bullet read as Latin-1): kept as it is.
      'Frankfurter Goethe-Haus \u0095 Freies Deutsches Hochstift', // view rights
      '© Frankfurter Goethe-Haus \u0095 Freies Deutsches Hochstift', // binary name3
      'Foto: Frankfurter Goethe-Haus \u0095 Freies Deutsches Hochstift', // binary name2
      'Frankfurter Goethe-Haus. Freies Deutsches Hochstift', // institution name
    ],
  });
  // flex_mus_neu_330 holds '<a href="...oges=1282">Teil von: ...</a>': its text only.
  const related = m.metadata.find((e: Json) => e.label.none[0] === 'Verwandtes Objekt/Literatur');
  assert.deepEqual(related.value, {
    none: ["Teil von: Goethe-Galerie. Charaktere aus Goethe's Werken. Gezeichnet von Friedrich Pecht und Arthur von Ramberg."],
  });
  // Five variants of position 1: full is painted, mvth is the thumbnail.
  assert.equal(m.items.length, 1);
  assert.equal(m.items[0].items[0].items[0].body.id, `${SERVICE}/binary/${OTHER_CORTEX_ID}/full/1.jpg`);
  assert.equal(m.thumbnail[0].id, `${SERVICE}/binary/${OTHER_CORTEX_ID}/mvth/1.jpg`);
  // The institution has no http(s) logo (logo-institution-ddbid is an id).
  assert.deepEqual(Object.keys(m.provider[0]), ['id', 'type', 'label', 'homepage']);
  assert.deepEqual(iiifProblems(m), []);
});

test(`MIMO record76 (${FLUTE_ID}): one canvas per view in position order, start at the primary`, async () => {
  const m = manifest(FLUTE_ID, await pkg(FLUTE_ID));
  const base = `${SERVICE}/items/${FLUTE_ID}/iiif`;
  assert.deepEqual(
    m.items.map((c: Json) => [c.id, c.items[0].items[0].body.id]),
    [1, 2, 3, 4, 5, 6].map((n) => [`${base}/canvas/${n}`, `${SERVICE}/binary/${FLUTE_ID}/list/${n}.jpg`]),
  );
  assert.deepEqual(m.start, { id: `${base}/canvas/1`, type: 'Canvas' });
  assert.deepEqual(m.items[0].label, { none: ['Querflöte (Pikkolo), System Boehm'] });
  // The view names the institution without a URL: the agent gets an id inside the manifest.
  assert.deepEqual(m.provider, [{ id: `${base}#provider`, type: 'Agent', label: { none: ['Germanisches Nationalmuseum'] } }]);
  assert.deepEqual(iiifProblems(m), []);

  // The primary binary need not be the first: start and thumbnail follow it.
  const p = await pkg(FLUTE_ID);
  for (const b of p.binaries.binary) b['@primary'] = String(b['@position'] === '3');
  const moved = manifest(FLUTE_ID, p);
  assert.deepEqual(moved.start, { id: `${base}/canvas/3`, type: 'Canvas' });
  assert.equal(moved.thumbnail[0].id, `${SERVICE}/binary/${FLUTE_ID}/list/3.jpg`);
  assert.deepEqual(
    moved.items.map((c: Json) => c.id.split('/').pop()),
    ['1', '2', '3', '4', '5', '6'],
  );
});

test(`${ALBUM_ID} (newer generation, binaries named by UUID): paths, rights statement, values from content`, async () => {
  const p = await pkg(ALBUM_ID);
  assert.deepEqual(packageBinaries(p), [
    {
      position: 1,
      primary: true,
      variant: '',
      // ref 0ac6ad6e-...; the real service ignores an extension, ours names the file
      path: '/binary/0ac6ad6e-a985-4251-91ca-f4b918326ead.jpg',
      mimetype: 'image/jpeg',
      name: 'Abb. Vorsatz. Titelblatt auf fliegendem Blatt mit Illustration und Autograph von W. Irmscher',
      credit: 'Urheber*in: DDZ (Fotografische Aufnahme)',
      rights: 'Digitalisierung: Deutsche Fotothek',
    },
  ]);
  const m = manifest(ALBUM_ID, p);
  assert.equal(m.rights, 'http://rightsstatements.org/vocab/InC/1.0/'); // view/item/license/resource
  // view rights: 'Bitte beachten Sie die <a href="...">Nutzungsbedingungen</a> der Deutschen Fotothek.'
  assert.equal(m.requiredStatement.value.none[0], 'Bitte beachten Sie die Nutzungsbedingungen der Deutschen Fotothek.');
  assert.deepEqual(m.metadata[0], {
    label: { none: ['Original Titel'] },
    value: { none: ['Bilder von meinem Urlaub 1942. Stätten der Kindheit'] },
  });
  assert.deepEqual(iiifProblems(m), []);
});

test('rights: Creative Commons and RightsStatements.org URIs in their http form, anything else only in metadata', async () => {
  const cases: Array<[Json, string | undefined]> = [
    [{ '@url': 'https://creativecommons.org/licenses/by/4.0/deed.de' }, 'http://creativecommons.org/licenses/by/4.0/'],
    [{ '@resource': 'https://rightsstatements.org/vocab/NoC-NC/1.0/' }, 'http://rightsstatements.org/vocab/NoC-NC/1.0/'],
    [{ '@resource': 'http://creativecommons.org/publicdomain/zero/1.0' }, 'http://creativecommons.org/publicdomain/zero/1.0/'],
    [{ '@resource': 'http://www.deutsche-digitale-bibliothek.de/lizenzen/rv-fz/', $: 'Rechte vorbehalten - Freier Zugang' }, undefined],
  ];
  for (const [license, rights] of cases) {
    const p = await pkg(CHAPTER_ID);
    p.view.item.license = license;
    const m = manifest(CHAPTER_ID, p);
    assert.equal(m.rights, rights, JSON.stringify(license));
    const entry = m.metadata.at(-1);
    assert.deepEqual(entry.label, { en: ['License'], de: ['Lizenz'] });
    assert.equal(entry.value.none.at(-1), license['@resource'] ?? license['@url']);
    assert.deepEqual(iiifProblems(m), []);
  }
});

test('a package without binaries has no canvas sources (the route answers 404)', async () => {
  const dir = writePackages([{ id: 'NOBINARIES', title: 'Ohne Digitalisat' }]);
  const p = (await load([dir])).get('NOBINARIES');
  assert.ok(p);
  assert.deepEqual(packageBinaries(p), []);
  assert.deepEqual(canvasSources(packageBinaries(p)), []);
});

test('every fixture package with binaries gives a manifest the structural schema accepts', async () => {
  const all = await load([CORTEX_DIR, `${FIXTURES}items/edm/mimo/`, `${FIXTURES}items/edm/misc/`]);
  let checked = 0;
  for (const [id, p] of all) {
    const positions = new Set(packageBinaries(p).map((b) => b.position));
    if (positions.size === 0) continue;
    const m = manifest(id, p);
    assert.deepEqual(iiifProblems(m), [], id);
    assert.equal(m.items.length, positions.size, id);
    checked++;
  }
  // 5 cortex packages, the distinct MIMO instruments, the misc record: 215 with binaries.
  assert.equal(checked, 215);
});

test('the structural schema refuses what Presentation 3.0 forbids (it can fail)', async () => {
  const good = manifest(FLUTE_ID, await pkg(FLUTE_ID));
  const broken: Array<[string, (m: Json) => void, string]> = [
    [
      'label as a plain string (§4.4)',
      (m) => {
        m.label = 'Querflöte';
      },
      '/label must be object',
    ],
    [
      'width without height (§5.4)',
      (m) => {
        delete m.items[0].height;
      },
      "/items/0 must have required property 'height'",
    ],
    [
      'rights as a deed page (§3.3.1)',
      (m) => {
        m.rights = 'https://creativecommons.org/licenses/by/4.0/deed.de';
      },
      '/rights must match pattern',
    ],
    [
      'no items (§5.3)',
      (m) => {
        delete m.items;
      },
      "/ must have required property 'items'",
    ],
    [
      'a misspelt property (§5.3)',
      (m) => {
        m.seealso = m.seeAlso;
      },
      '/ must NOT have additional properties',
    ],
    [
      'start outside the manifest (§3.4)',
      (m) => {
        m.start.id += '-elsewhere';
      },
      'is not a canvas of the manifest',
    ],
    [
      'an annotation painting another canvas (§5.8)',
      (m) => {
        m.items[1].items[0].items[0].target = m.items[0].id;
      },
      'not its canvas',
    ],
    [
      'one id for two canvases (§2.2)',
      (m) => {
        m.items[1].id = m.items[0].id;
        m.items[1].items[0].items[0].target = m.items[0].id;
      },
      'is used twice',
    ],
  ];
  for (const [what, breakIt, expected] of broken) {
    const m = structuredClone(good);
    breakIt(m);
    const problems = iiifProblems(m);
    assert.ok(
      problems.some((p) => p.includes(expected)),
      `${what}: ${JSON.stringify(problems)}`,
    );
  }
});
