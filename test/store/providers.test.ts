/**
 * Institutions in the store (docs/api.md "Institutions"): the providers the packages
 * name, with the number of items each delivered, for every backend.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readItemRecords } from '../../src/ingest/items/readItemRecords.js';
import type { PreparedItem } from '../../src/store/Store.js';
import type { ProviderRecord } from '../../src/domain/institution.js';
import { BACKENDS } from '../helpers/backends.js';
import { cortexXml, type TestPackage } from '../helpers/packages.js';
import { CORTEX_DIR } from '../helpers/paths.js';
import { readFileSync } from 'node:fs';

function prepared(p: TestPackage, extra: Partial<PreparedItem> = {}): PreparedItem {
  const [r] = readItemRecords(cortexXml(p));
  assert.equal(r?.kind, 'item');
  return { ...(r as { item: PreparedItem }).item, ...extra };
}

const provider = (key: string, fields: Partial<ProviderRecord> = {}): ProviderRecord => ({
  key,
  ddbId: key,
  providerId: '',
  parentId: '',
  name: key,
  uri: '',
  sectors: [],
  latitude: '',
  longitude: '',
  state: '',
  logo: '',
  ...fields,
});

const UNI = provider('UNI', { providerId: '001', name: 'Universität', sectors: ['sec_04'], latitude: '51.5', longitude: '9.9' });
const LIB = provider('LIB', { providerId: '002', parentId: '001', name: 'Bibliothek der Universität', sectors: ['sec_02', 'sec_04'] });
const MUS = provider('MUS', { providerId: '003', name: 'Museum', sectors: ['sec_06'] });

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} listProviders: every institution named, with the items each delivered, by name`, async () => {
    const { store, dispose } = await backend.open();
    try {
      assert.deepEqual(await store.listProviders(), []);
      await store.upsertItems([
        prepared({ id: 'A', title: 'A' }, { providers: [LIB, UNI] }),
        prepared({ id: 'B', title: 'B' }, { providers: [LIB, UNI] }),
        prepared({ id: 'C', title: 'C' }, { providers: [MUS] }),
        prepared({ id: 'D', title: 'D' }, { providers: [] }),
      ]);
      assert.deepEqual(await store.listProviders(), [
        { ...LIB, itemCount: 2 },
        { ...MUS, itemCount: 1 },
        { ...UNI, itemCount: 0 },
      ]);
      // A changed package moves its item to another institution and updates what it says of it.
      const moved = { ...MUS, latitude: '49.4', longitude: '11.1' };
      await store.upsertItems([prepared({ id: 'B', title: 'B changed' }, { providers: [moved] })]);
      assert.deepEqual(
        (await store.listProviders()).map((p) => [p.key, p.itemCount, p.latitude]),
        [
          ['LIB', 1, ''],
          ['MUS', 2, '49.4'],
          ['UNI', 0, '51.5'],
        ],
      );
      // Deleting an item takes its count along; the institution stays known.
      assert.equal(
        (await store.applyItemChanges([{ kind: 'delete', sourceId: 'http://www.deutsche-digitale-bibliothek.de/item/A' }])).deleted,
        1,
      );
      assert.deepEqual(
        (await store.listProviders()).map((p) => [p.key, p.itemCount]),
        [
          ['LIB', 0],
          ['MUS', 2],
          ['UNI', 0],
        ],
      );
      // A package that names none any more unlinks its item.
      await store.upsertItems([prepared({ id: 'C', title: 'C changed' }, { providers: [] })]);
      assert.deepEqual(
        (await store.listProviders()).map((p) => [p.key, p.itemCount]),
        [
          ['LIB', 0],
          ['MUS', 1],
          ['UNI', 0],
        ],
      );
    } finally {
      await dispose();
    }
  });

  test(`${b} an item stored before institutions were kept is linked when its unchanged package is loaded again`, async () => {
    const { store, dispose } = await backend.open();
    try {
      const item = prepared({ id: 'OLD', title: 'Old' });
      await store.upsertItems([{ ...item, providers: [] }]);
      const before = await store.dataVersion();
      assert.deepEqual(await store.upsertItems([{ ...item, providers: [MUS] }]), { inserted: 0, updated: 0, unchanged: 1 });
      assert.deepEqual(await store.listProviders(), [{ ...MUS, itemCount: 1 }]);
      assert.notEqual(await store.dataVersion(), before, 'caches of institution answers see the change');
    } finally {
      await dispose();
    }
  });

  test(`${b} the real packages: provider-info and its provider-parents become institutions`, async () => {
    const { store, dispose } = await backend.open();
    try {
      const items = ['4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22', 'NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR'].map((id) => {
        const [r] = readItemRecords(readFileSync(`${CORTEX_DIR}${id}.xml`, 'utf8'));
        return (r as { item: PreparedItem }).item;
      });
      await store.upsertItems(items);
      assert.deepEqual(await store.listProviders(), [
        {
          key: '6MZ5APQTMS5AH2UGHRWBKVAOZ7LSCCMS',
          ddbId: '6MZ5APQTMS5AH2UGHRWBKVAOZ7LSCCMS',
          providerId: '00012362',
          parentId: '',
          name: 'Frankfurter Goethe-Haus. Freies Deutsches Hochstift',
          uri: 'http://www.goethehaus-frankfurt.de',
          sectors: ['sec_02'],
          latitude: '50.1113162',
          longitude: '8.6776821',
          state: '',
          logo: '',
          itemCount: 0,
        },
        {
          key: 'YNKIAG7DFC4HZOATBPG75IFEY5BUDYUS',
          ddbId: 'YNKIAG7DFC4HZOATBPG75IFEY5BUDYUS',
          providerId: '99900860',
          parentId: '00012362',
          name: 'Frankfurter Goethe-Haus. Freies Deutsches Hochstift',
          uri: 'http://www.goethehaus-frankfurt.de',
          sectors: ['sec_06'],
          latitude: '50.1113162',
          longitude: '8.6776821',
          state: '',
          logo: '',
          itemCount: 1,
        },
        {
          key: 'X5L26OPZUGHRAXCAENZ4YSIABDSQBDCG',
          ddbId: 'X5L26OPZUGHRAXCAENZ4YSIABDSQBDCG',
          providerId: '00006818',
          parentId: '',
          name: 'Georg-August-Universität Göttingen',
          uri: 'http://www.uni-goettingen.de/',
          sectors: ['sec_04'],
          latitude: '51.5341',
          longitude: '9.93784',
          state: '',
          logo: '',
          itemCount: 0,
        },
        {
          key: 'JYK3LT7TXBO32BIOFZZM5VWGEFPOFYK6',
          ddbId: 'JYK3LT7TXBO32BIOFZZM5VWGEFPOFYK6',
          providerId: '00012417',
          parentId: '00006818',
          name: 'Niedersächsische Staats- und Universitätsbibliothek Göttingen',
          uri: 'http://www.sub.uni-goettingen.de',
          sectors: ['sec_02'],
          latitude: '51.540116',
          longitude: '9.934258',
          state: '',
          logo: '_thumb_10846.png',
          itemCount: 1,
        },
      ]);
    } finally {
      await dispose();
    }
  });
}
