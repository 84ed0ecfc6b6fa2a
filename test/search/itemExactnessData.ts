/**
 * Generated item packages for the item search's exactness test (docs/search-engine.md "Exactness"), made
 * in-process by the benchmark's generator (bench/synth/items.ts: item i is a pure function
 * of the seed and i) and turned into what the store keeps, as a load would: the cortex XML
 * and its JSON form (parseXml, cortexToJson).
 *
 * Two changes to the generated XML, both for the test's sake:
 * - the parts the search document does not read are cut (`edm`, `metadata-record`, the
 *   display fields of the view, all binaries but the first: 80 % of the bytes), so that
 *   100,000 packages parse in about a minute and the store stays small; what stays is the
 *   package the index reads (properties, indexing-profile, preview, view/item with its
 *   index fields, binaries);
 * - the generator's `begin_time` / `end_time` index fields (the item's year, as real
 *   packages carry them: 4XUD…, goethe.json) are replaced here by day numbers (days from
 *   0001-01-01) of the item's decade (its `time_fct`), on 85 % of the items, with few
 *   distinct values so that the begin_time order has long runs of ties, and some items
 *   without one.
 */
import { planForest } from '../../bench/synth/forest.js';
import { ItemGenerator } from '../../bench/synth/items.js';
import { PersonGenerator } from '../../bench/synth/persons.js';
import { loadVocab } from '../../bench/synth/vocab.js';
import { cortexToJson } from '../../src/formats/cortexToJson.js';
import { parseXml } from '../../src/formats/xmlTree.js';
import { Worker } from 'node:worker_threads';
import type { PreparedItem } from '../../src/store/Store.js';

export interface GeneratedItems {
  /** Item i of the data set (i ≥ the size gives the items added later, by the same generator). */
  item(i: number): PreparedItem;
}

function cut(xml: string, open: string, close: string): string {
  const a = xml.indexOf(open);
  const b = xml.indexOf(close, a);
  return a < 0 || b < 0 ? xml : xml.slice(0, a) + xml.slice(b + close.length);
}

/** Day number of 1 January of `year` (proleptic Gregorian is close enough: any integer will do). */
function dayOf(year: number): number {
  return Math.floor((year - 1) * 365.2425) + 1;
}

export function generatedItems(total: number, seed: number, persons = 10_000): GeneratedItems {
  const forest = planForest(total, seed);
  const gen = new ItemGenerator(forest, new PersonGenerator(loadVocab(), seed), persons, seed);
  return {
    item(i: number): PreparedItem {
      const g = gen.item(i);
      let xml = cut(
        cut(cut(g.xml, '<edm>', '</edm>'), '<metadata-record>', '</metadata-record>'),
        '<ns4:fields usage="display">',
        '</ns4:fields>',
      );
      // one binary is as good as eight for the index (has_media_fct); the others cost parsing time
      const binaries = xml.indexOf('<binaries>');
      const second = xml.indexOf('<binary ', xml.indexOf('<binary ', binaries) + 1);
      if (binaries >= 0 && second >= 0) xml = `${xml.slice(0, second)}</binaries></cortex>`;
      xml = xml.replace(/<ns4:field id="(?:begin|end)_time">.*?<\/ns4:field>/g, '');
      const decade = /<value>time_6(\d{4})<\/value>/.exec(xml);
      if (decade && i % 20 >= 3) {
        // 17 of 20 items get a time span; the begin is the decade's first day or (every
        // fourth) a day within it, so ties are many but not all.
        const begin = dayOf(Number(decade[1])) + (i % 4 === 0 ? i % 3650 : 0);
        const end = begin + (i % 7) * 365;
        const fields =
          `<ns4:field id="begin_time"><ns4:name>begin_time</ns4:name><ns4:value>${begin}</ns4:value></ns4:field>` +
          (i % 10 === 5 ? '' : `<ns4:field id="end_time"><ns4:name>end_time</ns4:name><ns4:value>${end}</ns4:value></ns4:field>`);
        xml = xml.replace('</ns4:fields></ns4:item></view>', `${fields}</ns4:fields></ns4:item></view>`);
      }
      const json = JSON.stringify(cortexToJson(parseXml(xml)));
      return {
        id: g.id,
        choUri: null,
        parentRef: null,
        previousRef: null,
        label: g.id,
        hierarchyType: null,
        position: null,
        aggregationEntity: false,
        xml,
        json,
        etag: `"${g.id}"`,
        refs: [],
      };
    },
  };
}

/**
 * Items [0, count) of the data set of `total`, handed to `take` in batches of `batch`, in
 * order, made in a worker thread two batches ahead (making a package costs more than
 * storing it: with two cores the two overlap).
 */
export async function loadGeneratedItems(
  total: number,
  seed: number,
  count: number,
  batch: number,
  take: (items: PreparedItem[]) => void,
): Promise<void> {
  const here = import.meta.url;
  const script = new URL('./itemExactnessWorker' + (here.endsWith('.ts') ? '.ts' : '.js'), here);
  // Under tsx the worker must register tsx itself before it can load a .ts file (as bench/data.ts does).
  const worker = here.endsWith('.ts')
    ? new Worker(
        `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(script.href)}); })`,
        {
          eval: true,
          workerData: { total, seed },
        },
      )
    : new Worker(script, { workerData: { total, seed } });
  try {
    await new Promise<void>((resolve, reject) => {
      let asked = 0;
      let received = 0;
      const ask = () => {
        if (asked < count) {
          worker.postMessage({ from: asked, to: Math.min(count, asked + batch) });
          asked = Math.min(count, asked + batch);
        }
      };
      worker.on('error', reject);
      worker.on('exit', (code) => (received < count ? reject(new Error(`the item worker stopped with code ${code}`)) : resolve()));
      worker.on('message', (items: PreparedItem[]) => {
        ask();
        try {
          take(items);
        } catch (e) {
          reject(e);
          return;
        }
        received += items.length;
        if (received >= count) resolve();
      });
      ask();
      ask();
    });
  } finally {
    await worker.terminate();
  }
}
