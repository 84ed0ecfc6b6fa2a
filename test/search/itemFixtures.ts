/**
 * Every real item package of the fixtures as the store would hold it: the cortex packages
 * (fixtures/items/cortex: XML kept as is, JSON turned into cortex XML) and the packages
 * buildPackage.ts makes of the EDM records (fixtures/items/edm), each read by
 * readItemRecords as a load does, so `item.json` is the stored JSON form.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { buildPackage } from '../../src/ingest/edm/buildPackage.js';
import { readItemRecords } from '../../src/ingest/items/readItemRecords.js';
import type { PreparedItem } from '../../src/store/Store.js';
import { CORTEX_DIR, FIXTURES } from '../helpers/paths.js';
import { readAll, recordsOf } from '../ingest-edm/helpers.js';

export interface FixturePackage {
  /** Where it comes from: `cortex/<file>` or `edm/<folder>/<file>#<n>`. */
  source: string;
  item: PreparedItem;
}

/** When the EDM packages are built: properties/ingest-date and the last_update facet. */
export const INGEST_DATE = new Date('2024-05-06T07:08:09Z');

function prepared(text: string, source: string): PreparedItem {
  const results = readItemRecords(text);
  const first = results[0];
  if (results.length !== 1 || first?.kind !== 'item') throw new Error(`${source}: ${JSON.stringify(first)}`);
  return first.item;
}

export function cortexPackages(): FixturePackage[] {
  return readdirSync(CORTEX_DIR)
    .sort()
    .map((file) => ({
      source: `cortex/${file}`,
      item: prepared(readFileSync(CORTEX_DIR + file, 'utf8'), `cortex/${file}`),
    }));
}

export async function edmPackages(): Promise<FixturePackage[]> {
  const out: FixturePackage[] = [];
  const root = `${FIXTURES}items/edm/`;
  for (const folder of readdirSync(root).sort()) {
    for (const file of readdirSync(root + folder)
      .filter((f) => f.endsWith('.xml'))
      .sort()) {
      const records = recordsOf(await readAll(readFileSync(`${root}${folder}/${file}`)));
      records.forEach((record, n) => {
        const source = `edm/${folder}/${file}#${n + 1}`;
        out.push({ source, item: prepared(buildPackage(record, { ingestDate: INGEST_DATE }).xml, source) });
      });
    }
  }
  return out;
}
