/**
 * The provider each hit of the results page names, from its package (src/web/hits.ts
 * providersOf): kept per package version, so a package loaded again with another institution
 * shows the new one at once, and a blocked or missing item none.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { providersOf } from '../../src/web/hits.js';
import { BACKENDS } from '../helpers/backends.js';
import { tempDir } from '../helpers/tempDir.js';
import { pageCortexXml } from './pagePackages.js';

for (const backend of BACKENDS) {
  test(`[${backend.name}] the provider of each hit follows its package's version`, async () => {
    const { store, dispose } = await backend.open();
    try {
      const load = async (institution: string) => {
        const dir = tempDir('providers');
        for (const id of ['PROV01', 'PROV02'])
          writeFileSync(
            join(dir, `${id}.xml`),
            pageCortexXml({ id, title: id }).replace('Archiv &lt;i&gt;Test&lt;/i&gt; ]]&gt;', institution),
          );
        await ingestItems(store, [dir], { batchSize: 10 });
      };
      await load('Stadtarchiv A');
      assert.deepEqual(await providersOf(store, ['PROV01', 'PROV02', 'NONE']), { PROV01: 'Stadtarchiv A', PROV02: 'Stadtarchiv A' });
      // Asked again (from what was kept): the same.
      assert.deepEqual(await providersOf(store, ['PROV02']), { PROV02: 'Stadtarchiv A' });
      await load('Museum &amp; Archiv B');
      assert.deepEqual(await providersOf(store, ['PROV01', 'PROV02']), { PROV01: 'Museum & Archiv B', PROV02: 'Museum & Archiv B' });
      await store.blockItem('PROV01', 'test');
      assert.deepEqual(await providersOf(store, ['PROV01', 'PROV02']), { PROV02: 'Museum & Archiv B' });
    } finally {
      await dispose();
    }
  });
}
