/**
 * Hierarchies as IIIF Collections and IIIF Change Discovery (docs/iiif.md), on both backends,
 * over the real three-level HOPE fixture (the periodical "Combat": its record, its years,
 * their issues): every Collection and Manifest is loaded with @iiif/parser (normalize, and its
 * strict Presentation 3 upgrader, which reports what it had to fix), and walked from the root
 * to every leaf, each resource's `partOf` naming the Collection it was reached from. The
 * Change Discovery stream lists every item once, oldest first, and a block and an unblock come
 * last as a Delete and an Update.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalize } from '@iiif/parser';
import { presentation3StrictUpgrade } from '@iiif/parser/strict';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { BACKENDS } from '../helpers/backends.js';
import { iiifProblems } from '../helpers/iiifSchema.js';
import { HOPE_DIR } from '../helpers/paths.js';

const HOST = 'iiif.example.org';
const ROOT = 'WTJM2UE6ZMFKKSWS7TCDY6U2R4EQEHJG';
const YEAR_1961 = 'ZLUM2OHST2VT44RSZEQDECPKB4V52MZZ';
const ISSUE = 'ZYPKTHQVYW7BDWECOQLUQRFXOHP3A33C';
const PAGE_SIZE = 10;
const HOPE_RECORDS = 786;
const LD_JSON = 'application/ld+json; profile="http://iiif.io/api/presentation/3/context.json"; charset=utf-8';
const AS_JSON = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"; charset=utf-8';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- IIIF bodies are read as parsed JSON; @iiif/parser checks them
type Json = Record<string, any>;
const url = (path: string) => `http://${HOST}${path}`;
const collection = (id: string) => url(`/items/${id}/iiif/collection`);

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;
  const withApp = async (run: (t: TestApp, get: (path: string, accept?: string) => Promise<Json>) => Promise<void>) => {
    const t = await startTestApp(backend, { load: [HOPE_DIR], flags: { iiif: { pageSize: PAGE_SIZE } } });
    const get = async (path: string, accept = 'application/ld+json') => {
      const r = await t.app.inject({ url: path, headers: { ...t.json, accept, host: HOST, origin: 'https://viewer.example' } });
      assert.equal(r.statusCode, 200, `${path}: ${r.body}`);
      assert.equal(r.headers['access-control-allow-origin'], '*');
      return { ...r.json(), '#type': r.headers['content-type'] } as Json;
    };
    try {
      await run(t, get);
    } finally {
      await t.close();
    }
  };

  test(`${b} the HOPE tree walked from its root Collection to every issue's Manifest with @iiif/parser`, async () => {
    await withApp(async (_t, get) => {
      const seen = { Collection: new Set<string>(), Manifest: new Set<string>() };
      const queue: Array<{ id: string; type: 'Collection' | 'Manifest'; from: string | undefined }> = [
        { id: collection(ROOT), type: 'Collection', from: undefined },
      ];
      const parentOfItem = new Map<string, string>();
      while (queue.length > 0) {
        const next = queue.shift()!;
        const { '#type': type, ...doc } = await get(new URL(next.id).pathname);
        assert.equal(type, LD_JSON);
        assert.equal(doc.id, next.id);
        assert.equal(doc.type, next.type);
        if (next.type === 'Manifest') assert.deepEqual(iiifProblems(doc), []);
        // @iiif/parser reads it as the resource it says it is, with nothing to upgrade (each on a copy: both change what they are given).
        const normalized = normalize(structuredClone(doc));
        assert.deepEqual(normalized.resource, { id: next.id, type: next.type });
        const warnings: string[] = [];
        presentation3StrictUpgrade(structuredClone(doc) as never, { warnings });
        assert.deepEqual(warnings, [], next.id);
        assert.equal(seen[next.type].has(next.id), false, `${next.id} reached twice`);
        seen[next.type].add(next.id);
        if (next.type === 'Manifest') assert.equal((normalized.entities.Manifest as Json)[next.id].items.length > 0, true);
        // partOf names the Collection it was reached from (a page names its whole Collection).
        if (next.from === undefined) assert.equal(doc.partOf, undefined);
        else
          assert.deepEqual(
            doc.partOf.map((p: Json) => [p.id, p.type]),
            [[next.from, 'Collection']],
          );
        if (next.type === 'Collection') {
          const isPage = /\/collection\/\d+$/.test(next.id);
          const whole = isPage ? next.id.replace(/\/\d+$/, '') : next.id;
          for (const member of doc.items as Json[]) {
            queue.push({ id: member.id, type: member.type, from: whole });
            const child = /\/items\/([^/]+)\/iiif/.exec(member.id)![1]!;
            if (!/\/collection\/\d+$/.test(member.id)) parentOfItem.set(child, /\/items\/([^/]+)\//.exec(whole)![1]!);
          }
        }
      }
      // The root, its 16 years; each year and the root paged by 10; every issue a Manifest.
      const wholeCollections = [...seen.Collection].filter((id) => !/\/\d+$/.test(id));
      assert.equal(wholeCollections.length, 17);
      assert.equal(seen.Manifest.size, HOPE_RECORDS - 17);
      assert.equal(parentOfItem.get(ISSUE), YEAR_1961);
      assert.equal(parentOfItem.get(YEAR_1961), ROOT);
    });
  });

  test(`${b} a Collection and its pages, whole; a manifest names its parent's Collection; under /2 the ids are under /2`, async () => {
    await withApp(async (t, get) => {
      const label = "Combat : hebdomadaire wallon d'action socialiste";
      const { '#type': _root, ...root } = await get(`/items/${ROOT}/iiif/collection`);
      assert.deepEqual(root, {
        '@context': 'http://iiif.io/api/presentation/3/context.json',
        id: collection(ROOT),
        type: 'Collection',
        label: { none: [label] },
        items: [
          { id: `${collection(ROOT)}/1`, type: 'Collection', label: { none: [`${label} (1–10)`] } },
          { id: `${collection(ROOT)}/2`, type: 'Collection', label: { none: [`${label} (11–16)`] } },
        ],
      });
      const { '#type': _page, ...page } = await get(`/items/${ROOT}/iiif/collection/2`, 'application/json');
      assert.equal(_page, 'application/json; charset=utf-8');
      assert.deepEqual(page, {
        '@context': 'http://iiif.io/api/presentation/3/context.json',
        id: `${collection(ROOT)}/2`,
        type: 'Collection',
        label: { none: [`${label} (11–16)`] },
        partOf: [{ id: collection(ROOT), type: 'Collection', label: { none: [label] } }],
        items: [
          ['BDG6GKONVPUUDHK7B7MWPVRU2VEJGN7S', 1971],
          ['4T6BJQO4B73JXFJRZDDIYHPPTJKGAXRN', 1972],
          ['F6TEXI562YLJFWDMSA3SVSSGXIBADRDB', 1973],
          ['G53HVTNXHGBYEWUH5MFAYL47CDIFQJU4', 1974],
          ['I73ZT6UP3BOTN3ELDT573VLYHZTJXU5T', 1975],
          ['CMELHFXMJNNMOZHCLZ2FDIKWVSASGYL5', 1976],
        ].map(([id, year]) => ({ id: collection(id as string), type: 'Collection', label: { none: [`Combat (${year})`] } })),
      });
      const manifest = await get(`/items/${ISSUE}/iiif`);
      assert.deepEqual(manifest.partOf, [{ id: collection(YEAR_1961), type: 'Collection', label: { none: ['Combat (1961)'] } }]);
      const two = await get(`/2/items/${YEAR_1961}/iiif/collection`);
      assert.equal(two.id, url(`/2/items/${YEAR_1961}/iiif/collection`));
      assert.deepEqual(two.partOf, [{ id: url(`/2/items/${ROOT}/iiif/collection`), type: 'Collection', label: { none: [label] } }]);
      assert.equal(two.items[0].id, url(`/2/items/${YEAR_1961}/iiif/collection/1`));

      const error = async (path: string, status: number, name: string, message: string) => {
        const r = await t.app.inject({ url: path, headers: { ...t.json, host: HOST } });
        assert.deepEqual({ status: r.statusCode, body: r.json() }, { status, body: { status, name, message } }, path);
      };
      await error(
        `/items/${ISSUE}/iiif/collection`,
        404,
        'NoChildrenException',
        `Item '${ISSUE}' has no children in the store, so there is no IIIF Collection for it (docs/iiif.md). Its manifest, if it has binaries, is /items/${ISSUE}/iiif.`,
      );
      await error(
        `/items/${ROOT}/iiif/collection/3`,
        404,
        'PageNotFoundException',
        `The Collection of item '${ROOT}' has no page 3: its pages are 1 to 2. Follow the links of the first answer (docs/iiif.md).`,
      );
      await error(
        `/items/${ROOT}/iiif/collection/x`,
        400,
        'BadRequestException',
        "Bad request: the page 'x' is not a whole number; follow the links of the first answer.",
      );
      await error('/items/NOSUCHITEM/iiif/collection', 404, 'ItemNotFoundException', "Item 'NOSUCHITEM' not found.");
      await error(
        '/iiif/discovery/page/999',
        404,
        'PageNotFoundException',
        'The change discovery stream has no page 999: its pages are 0 to 78. Follow the links of the first answer (docs/iiif.md).',
      );
      const keyless = await t.app.inject({ url: '/iiif/discovery', headers: { host: HOST, accept: 'application/ld+json' } });
      assert.equal(keyless.statusCode, 401);
    });
  });

  test(`${b} Change Discovery: every item once, oldest first; a block and an unblock come last as Delete and Update`, async () => {
    await withApp(async (t, get) => {
      const read = async () => {
        const { '#type': type, ...stream } = await get('/iiif/discovery');
        assert.equal(type, AS_JSON);
        const last = Math.ceil(HOPE_RECORDS / PAGE_SIZE) - 1;
        assert.deepEqual(stream, {
          '@context': 'http://iiif.io/api/discovery/1/context.json',
          id: url('/iiif/discovery'),
          type: 'OrderedCollection',
          first: { id: url('/iiif/discovery/page/0'), type: 'OrderedCollectionPage' },
          last: { id: url(`/iiif/discovery/page/${last}`), type: 'OrderedCollectionPage' },
        });
        const activities: Json[] = [];
        for (let n = 0; n <= last; n++) {
          const { '#type': _, ...page } = await get(`/iiif/discovery/page/${n}`);
          assert.deepEqual(
            [page.id, page.type, page.partOf, page.prev?.id, page.next?.id],
            [
              url(`/iiif/discovery/page/${n}`),
              'OrderedCollectionPage',
              { id: url('/iiif/discovery'), type: 'OrderedCollection' },
              n > 0 ? url(`/iiif/discovery/page/${n - 1}`) : undefined,
              n < last ? url(`/iiif/discovery/page/${n + 1}`) : undefined,
            ],
          );
          activities.push(...page.orderedItems);
        }
        return activities;
      };
      const before = await read();
      // Each issue's Manifest and each year's and the root's Collection, once.
      assert.equal(before.length, HOPE_RECORDS);
      assert.equal(new Set(before.map((a) => a.object.id)).size, HOPE_RECORDS);
      assert.deepEqual(
        new Set(before.map((a) => a.type)).size > 0 && before.every((a) => a.type === 'Create' || a.type === 'Update'),
        true,
      );
      assert.equal(before.filter((a) => a.object.type === 'Collection').length, 17);
      const times = before.map((a) => a.endTime as string);
      assert.deepEqual(times, [...times].sort());
      assert.equal(
        times.every((x) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(x)),
        true,
      );

      // A change is stamped with the second it is made in: wait for a second after the load's last.
      const loaded = Date.parse(times.at(-1)!) / 1000;
      while (Math.floor(Date.now() / 1000) <= loaded) await new Promise((resolve) => setImmediate(resolve));
      assert.equal(await t.store.blockItem(ISSUE, 'test'), true);
      const blocked = await read();
      assert.deepEqual(blocked.slice(-2), [
        { type: 'Delete', object: { id: url(`/items/${ISSUE}/iiif`), type: 'Manifest' }, endTime: blocked.at(-1)!.endTime },
        { type: 'Delete', object: { id: collection(ISSUE), type: 'Collection' }, endTime: blocked.at(-1)!.endTime },
      ]);
      assert.equal(blocked.at(-1)!.endTime > times.at(-1)!, true);
      assert.equal(blocked.filter((a) => a.object.id === url(`/items/${ISSUE}/iiif`)).length, 1);
      assert.equal(await t.store.unblockItem(ISSUE), true);
      const back = await read();
      assert.deepEqual(back.at(-1), {
        type: 'Update',
        object: { id: url(`/items/${ISSUE}/iiif`), type: 'Manifest' },
        endTime: back.at(-1)!.endTime,
      });
      assert.equal(back.length, HOPE_RECORDS);
    });
  });
}
