/**
 * One server on SQLite and one on PostgreSQL, loaded with the same records, answer every
 * operation of the spec with the same bytes, so that a store can move between backends unnoticed:
 * item packages,
 * `parents`, `children`, entities, the item search, institutions, the key check and
 * blocks, errors included. Status, the headers a client reads and the whole body are
 * compared; only Last-Modified (the time of each load) and the request id may differ.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateApiKey, hashApiKey } from '../../src/apiKeys.js';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { POSTGRES, SQLITE } from '../helpers/backends.js';
import { CHAPTER_ID, FIXTURES, GOETHE_ID, OTHER_CORTEX_ID } from '../helpers/paths.js';

/** The same instant for both loads: EDM packages carry their ingest date. */
const INGESTED = new Date('2024-05-01T12:00:00Z');
const HEADERS = ['content-type', 'etag', 'vary', 'cache-control', 'www-authenticate', 'content-encoding', 'retry-after'];

async function loaded(backend: typeof SQLITE): Promise<TestApp> {
  const t = await startTestApp(backend);
  await ingestItems(t.store, [`${FIXTURES}items/cortex`, `${FIXTURES}items/edm`], {
    batchSize: 100,
    edm: { ingestDate: INGESTED, providersFingerprint: '' },
  });
  await ingestEntities(t.store, [`${FIXTURES}persons`], { batchSize: 500 });
  return t;
}

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

async function ask(t: TestApp, url: string, headers: Record<string, string>): Promise<Answer> {
  const res = await t.app.inject({ url, headers });
  const kept: Record<string, unknown> = {};
  for (const h of HEADERS) if (res.headers[h] !== undefined) kept[h] = res.headers[h];
  return { status: res.statusCode, headers: kept, body: res.body };
}

test('SQLite and PostgreSQL answer every operation with the same status, headers and bytes', async () => {
  const [a, b] = [await loaded(SQLITE), await loaded(POSTGRES)];
  try {
    // One key for both, so that answers naming none differ in nothing.
    const key = generateApiKey();
    for (const t of [a, b]) await t.store.createKey('shared', hashApiKey(key));
    const auth = `OAuth oauth_consumer_key="${key}"`;
    const json = { accept: 'application/json', authorization: auth };
    const xml = { accept: 'application/xml', authorization: auth };

    const ids = await a.store.listItemIds({ limit: 100_000 });
    assert.deepEqual(await b.store.listItemIds({ limit: 100_000 }), ids, 'the same items');
    // Items with a place in a hierarchy, and some others, every format.
    const withParents = [] as string[];
    for (const id of ids) {
      const ancestry = await a.store.getAncestry(id);
      if (ancestry !== undefined && ancestry.nodes.length > 2) withParents.push(id);
    }
    assert.ok(withParents.length >= 5, 'the fixtures hold hierarchies');
    const roots = new Set<string>();
    for (const id of withParents) roots.add((await a.store.getAncestry(id))!.nodes.at(-1)!.id);
    const sample = [
      ...new Set([CHAPTER_ID, OTHER_CORTEX_ID, GOETHE_ID, ...withParents.slice(0, 10), ...ids.filter((_, i) => i % 97 === 0)]),
    ];
    const requests: Array<[string, Record<string, string>]> = [];
    for (const id of sample) {
      for (const h of [json, xml]) {
        requests.push([`/items/${id}/aip`, h], [`/items/${id}`, h], [`/items/${id}/parents`, h], [`/items/${id}/children`, h]);
      }
      requests.push(
        [`/items/${id}/aip`, { ...json, 'accept-encoding': 'br' }],
        [`/items/${id}/aip`, { ...json, 'accept-encoding': 'gzip' }],
      );
      requests.push([`/items/${id}/edm`, xml], [`/items/${id}/view`, json]);
    }
    for (const root of roots) requests.push([`/items/${root}/children?offset=1&rows=3`, json], [`/items/${root}/children`, xml]);
    for (const q of [
      '/entities?query=Goethe',
      '/entities?query=*:*&facet=person_occupation_fct&rows=20&sort=ALPHA_ASC',
      '/entities?query=preferredName:friedell OR variantName:friedell',
      '/entities?query=Wien&facet=person_gender_fct&offset=3&rows=5',
      '/search?query=goethe&sort=ALPHA_ASC&rows=5&facet=place_fct&facet=type_fct',
      '/search?query=*:*&rows=50&facet=sector_fct&facet=provider_fct',
      '/search?has_media_fct=false&sort=ALPHA_DESC&rows=3',
      '/institutions',
      '/institutions?hasItems=true',
      '/institutions/map',
      '/institutions/sectors',
      '/items/NOSUCHITEM/aip',
      '/items/NOSUCHITEM/children',
      '/entities?sort=nonsense',
      '/search?query=title:(',
    ]) {
      requests.push([q, json]);
    }
    // The key check: none, unknown, a good one in the query string.
    requests.push([`/items/${CHAPTER_ID}/aip`, { accept: 'application/json' }]);
    requests.push([`/items/${CHAPTER_ID}/aip`, { accept: 'application/json', authorization: 'OAuth oauth_consumer_key="nosuchkey"' }]);
    requests.push([`/items/${CHAPTER_ID}/parents?oauth_consumer_key=${key}`, { accept: 'application/json' }]);

    const compare = async () => {
      for (const [url, headers] of requests) {
        const [x, y] = [await ask(a, url, headers), await ask(b, url, headers)];
        assert.deepEqual(y, x, `${url} (${headers.accept}${headers['accept-encoding'] ? `, ${headers['accept-encoding']}` : ''})`);
      }
    };
    await compare();
    assert.ok(requests.length > 100);

    // A block and a revoked key, on both: the same refusals.
    for (const t of [a, b]) {
      assert.equal(await t.store.blockItem(CHAPTER_ID, 'A claim by the holder.'), true);
      assert.equal(await t.store.revokeKey('test'), true);
    }
    requests.push([`/items/${CHAPTER_ID}/aip`, { accept: 'application/json', authorization: `OAuth oauth_consumer_key="${a.key}"` }]);
    await compare();
    const blocked = await ask(b, `/items/${CHAPTER_ID}/aip`, json);
    assert.equal(blocked.status, 403);
    assert.match(blocked.body, /A claim by the holder\./);
  } finally {
    await a.close();
    await b.close();
  }
});
