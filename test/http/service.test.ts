/**
 * GET /version and GET /status over the real server (docs/api.md "GET /version and GET /status").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { harvestSource } from '../../src/ingest/harvest.js';
import { BACKENDS } from '../helpers/backends.js';
import { startTestApp } from '../helpers/app.js';
import { writePackages } from '../helpers/packages.js';

const PACKAGE_VERSION = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version as string;

for (const backend of BACKENDS) {
  const b = `[${backend.name}]`;

  test(`${b} /version: the version as plain text, without a key, as the v2 clients call it`, async () => {
    const t = await startTestApp(backend);
    try {
      for (const accept of ['*/*', 'text/plain', 'application/json, application/xml;q=0.9, text/plain;q=0.8, */*;q=0.5']) {
        const res = await t.app.inject({ url: '/version', headers: { accept } });
        assert.equal(res.statusCode, 200, accept);
        assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
        assert.equal(res.body, PACKAGE_VERSION);
      }
      const json = await t.app.inject({ url: '/version', headers: { accept: 'application/json' } });
      assert.equal(json.statusCode, 406);
      assert.equal(
        json.body,
        '{"status":406,"name":"NotAcceptableException","message":"The requested type is not acceptable. Send an Accept header that allows text/plain."}',
      );
      // The OpenAPI description carries the same version.
      const openapi = await t.app.inject({ url: '/openapi.json', headers: { accept: 'application/json' } });
      assert.equal(openapi.json().info.version, PACKAGE_VERSION);
    } finally {
      await t.close();
    }
  });

  test(`${b} /status: version, counts, the last loads and the harvested sources, with a key`, async () => {
    const before = new Date();
    const t = await startTestApp(backend, {
      load: [
        writePackages([
          { id: 'S1', title: 'One' },
          { id: 'S2', title: 'Two', parent: 'S1' },
        ]),
      ],
    });
    try {
      // A source whose URL carries credentials: /status must not show them.
      await t.store.applyItemChanges([], {
        source: harvestSource('https://user:secret@oai.example.org/oai?token=abc', 'edm', 'set:1'),
        state: { highWater: '2024-05-01T00:00:00Z', resumptionToken: null, runFrom: null, runStarted: null },
      });
      await t.store.applyItemChanges([], {
        source: harvestSource('https://other.example.org/oai', 'rdf', undefined),
        state: { highWater: null, resumptionToken: 'NEXT', runFrom: null, runStarted: '2024-06-01T00:00:00Z' },
      });
      const noKey = await t.app.inject({ url: '/status', headers: { accept: 'application/json' } });
      assert.equal(noKey.statusCode, 401);
      const res = await t.app.inject({ url: '/status', headers: t.json });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(res.headers['cache-control'], 'no-cache');
      const body = res.json();
      const times = [body.loads[0].lastLoaded, body.harvests[0].lastHarvested, body.harvests[1].lastHarvested];
      for (const time of times) {
        assert.match(time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        assert.ok(Date.parse(time) >= before.getTime() && Date.parse(time) <= Date.now(), time);
      }
      assert.equal(typeof body.dataVersion, 'string');
      assert.equal(
        res.body,
        JSON.stringify({
          version: PACKAGE_VERSION,
          dataVersion: body.dataVersion,
          items: 2,
          persons: 0,
          loads: [{ kind: 'items', lastLoaded: times[0], records: 2, inserted: 2, updated: 0, unchanged: 0, deleted: 0, problems: 0 }],
          harvests: [
            // In the order of the stored source keys.
            {
              baseUrl: 'https://other.example.org/oai',
              metadataPrefix: 'rdf',
              set: null,
              lastHarvested: times[1],
              highWater: null,
              complete: false,
            },
            {
              baseUrl: 'https://oai.example.org/oai',
              metadataPrefix: 'edm',
              set: 'set:1',
              lastHarvested: times[2],
              highWater: '2024-05-01T00:00:00Z',
              complete: true,
            },
          ],
        }),
      );
      assert.doesNotMatch(res.body, /secret|token=abc/);
      // The counts follow the data.
      const { ingestItems } = await import('../../src/ingest/ingestItems.js');
      await ingestItems(t.store, [writePackages([{ id: 'S3', title: 'Three' }])], { batchSize: 10 });
      const after = (await t.app.inject({ url: '/status', headers: t.json })).json();
      assert.equal(after.items, 3);
      assert.notEqual(after.dataVersion, body.dataVersion);
      assert.equal(after.loads[0].records, 1);
      const xml = await t.app.inject({ url: '/status', headers: t.xml });
      assert.equal(xml.statusCode, 406);
    } finally {
      await t.close();
    }
  });
}
