/**
 * The ways to explore in a real browser (docs/pages.md "Ways to explore"): headless Chromium
 * (Debian's `chromium`, driven by playwright-core) on the real server with the demo's records
 * and a few records built from EDM at places with coordinates. A visitor narrows the results by
 * a bar of the histogram and by the years' form, pages to the last page and back to the first,
 * opens a long facet's values ("show all") and filters them with its box, searches with the
 * API's `query=`, reads the places of a search and the places around one, browses the persons
 * by initial and opens similar items; axe-core checks each page (no violation of any impact).
 * The visitor's browser runs no JavaScript: the pages are plain links and GET forms.
 *
 * Not part of `npm test`: `npm run test:browser`, which .ci/run runs after installing Chromium.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { buildServer } from '../../src/http/server.js';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { BACKENDS } from '../helpers/backends.js';
import { FIXTURES } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';
import { writeEdmMediaRecords } from '../web/edmMediaRecords.js';

const CHROMIUM = '/usr/bin/chromium';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let context: BrowserContext;
/** A browser with scripts on, for axe-core (the visitor's has none). */
let checker: Browser;
let app: FastifyInstance;
let base: string;
let dispose: () => Promise<void>;
const profile = tempDir('chromium-explore');

/** Views of two towns, at their coordinates (as gazetteers give them), for the places page. */
const TOWNS = [
  { name: 'Leipzig', lat: '51.33962', long: '12.37129', views: 3 },
  { name: 'Berlin', lat: '52.52437', long: '13.41053', views: 2 },
];

before(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: install it with \`apt-get install -y chromium\` (as root), then run \`npm run test:browser\` again.`,
    );
  const opened = await BACKENDS[0]!.open();
  dispose = opened.dispose;
  const views = writeEdmMediaRecords(
    TOWNS.flatMap((town) =>
      Array.from({ length: town.views }, (_, i) => ({
        id: `VIEW${town.name.toUpperCase()}${i + 1}`,
        title: `Stadtansicht ${town.name} ${i + 1}`,
        media: [],
        place: { name: town.name, lat: town.lat, long: town.long },
      })),
    ),
  );
  await ingestItems(opened.store, [`${FIXTURES}items/cortex`, `${FIXTURES}items/edm`, views], { batchSize: 500 });
  await ingestEntities(opened.store, [`${FIXTURES}persons`], { batchSize: 500 });
  const config = loadConfig({ flags: { store: BACKENDS[0]!.config(opened.location), server: { port: 0 }, web: { rateLimitMax: 0 } } });
  app = await buildServer(config, opened.store, { logging: false });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
  context = await chromium.launchPersistentContext(join(profile, 'chromium'), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    // The pages run no script of their own: the test sees them as a visitor without JavaScript does.
    javaScriptEnabled: false,
    locale: 'de-DE',
    viewport: { width: 1280, height: 900 },
  });
  checker = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
});

after(async () => {
  await checker?.close();
  await context?.close();
  await app?.close();
  await dispose?.();
});

/** axe-core's violations of the page as it stands, in a context of its own with scripts on. */
async function checkAccessibility(url: string): Promise<void> {
  const p = await checker.newPage({ bypassCSP: true, locale: 'de-DE' });
  try {
    await p.goto(url);
    await p.addScriptTag({ content: AXE });
    const violations = await p.evaluate(async () => {
      const result = await (
        globalThis as unknown as {
          axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> };
        }
      ).axe.run();
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
    });
    assert.deepEqual(violations, [], `${url}: ${JSON.stringify(violations)}`);
  } finally {
    await p.close();
  }
}

const total = async (page: Page) => (await page.locator('p.total').textContent())!;

test('a visitor narrows by the histogram and by years, pages to the last and first, opens and filters a long facet, searches with query=, reads the places, browses persons and opens a similar item', async () => {
  const page = await context.newPage();
  await page.goto(`${base}/search?q=Combat`);
  assert.match(await total(page), /^1–20 von 786$/);
  await checkAccessibility(page.url());

  // A bar of the histogram: the decade 1961–1970.
  await page.getByRole('link', { name: '1961–1970: 481 Objekte' }).click();
  await page.waitForURL(/from=1961&to=1970/);
  assert.match(await total(page), /^1–20 von 481$/);
  assert.equal(await page.locator('#timeline-heading').textContent(), 'Zeitraum: 1961–1970');

  // The years' form, with the keyboard: 1971 to 1980.
  await page.getByLabel('Von Jahr').fill('1971');
  await page.getByLabel('Bis Jahr').fill('1980');
  await page.getByLabel('Bis Jahr').press('Enter');
  await page.waitForURL(/from=1971&to=1980/);
  assert.match(await total(page), /^1–20 von 306$/);
  // The chip takes the range away again.
  await page.locator('.active-filters a.chip').click();
  await page.waitForURL(/\/search\?q=Combat$/);

  // The pager: the last page, then the first.
  await page.goto(`${base}/search?q=Combat`);
  await page.getByRole('navigation', { name: 'Seiten' }).getByRole('link', { name: 'Seite 40 von 40' }).click();
  await page.waitForURL(/\/search\?q=Combat&page=40$/);
  assert.match(await total(page), /^781–786 von 786$/);
  assert.equal(await page.locator('li.hit').count(), 6);
  assert.equal(await page.locator('.pager [aria-current="page"]').textContent(), '40');
  await page.getByRole('navigation', { name: 'Seiten' }).getByRole('link', { name: 'Seite 1 von 40' }).click();
  await page.waitForURL(/\/search\?q=Combat$/);
  assert.match(await total(page), /^1–20 von 786$/);

  // A long facet: "show all" lists every value, and its filter box finds one, which filters the results.
  await page.goto(`${base}/search`);
  // The facet's name is visually hidden text (position: absolute), which Chromium joins with a space: "Alle anzeigen : Institution".
  await page.getByRole('link', { name: /^Alle anzeigen ?: Institution$/ }).click();
  await page.waitForURL(/\/facet\/provider_fct$/);
  const institutions = await page.locator('.values a').count();
  assert.ok(institutions > 8, `more values than the results page shows, got ${institutions}`);
  assert.match(await total(page), new RegExp(`^1–${institutions} von ${institutions} Werten$`));
  await checkAccessibility(page.url());
  await page.goto(`${base}/search`);
  const filterBox = page.getByRole('searchbox', { name: /^Werte filtern ?: Institution$/ });
  await filterBox.fill('leipzig');
  await filterBox.press('Enter');
  await page.waitForURL(/\/facet\/provider_fct\?fq=leipzig$/);
  assert.equal(await total(page), '1–1 von 1 Werten');
  await checkAccessibility(page.url());
  await page.locator('.values a').first().click();
  await page.waitForURL(/\/search\?f=provider_fct/);
  assert.match(await total(page), /^1–20 von 72$/);

  // `query=`, the API's and the DDB portal's name, searches as `q=` does.
  const hitsOf = async (url: string) => {
    await page.goto(url);
    return { total: await total(page), hits: await page.locator('li.hit a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))) };
  };
  const byQ = await hitsOf(`${base}/search?q=Goethe`);
  assert.match(byQ.total, /^1–\d+ von \d+$/);
  assert.ok(byQ.hits.length > 0);
  assert.deepEqual(await hitsOf(`${base}/search?query=Goethe`), byQ);
  assert.equal(await page.locator('h1').textContent(), 'Ergebnisse für „Goethe“');
  assert.equal(await page.getByRole('searchbox', { name: 'Suche in Objekten und Personen' }).inputValue(), 'Goethe');

  // The places of a search, with their counts; one of them filters the results; the places around one.
  await page.goto(`${base}/search?q=Stadtansicht`);
  await page.getByRole('link', { name: 'Orte dieser Suche' }).click();
  await page.waitForURL(/\/places\?q=Stadtansicht$/);
  const rows = () =>
    page.locator('table.places tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  assert.deepEqual(await rows(), [
    ['Leipzig', '51,33962, 12,37129', '3', 'Orte in der Nähe'],
    ['Berlin', '52,52437, 13,41053', '2', 'Orte in der Nähe'],
  ]);
  await checkAccessibility(page.url());
  await page.getByRole('link', { name: 'Leipzig', exact: true }).click();
  await page.waitForURL(/\/search\?q=Stadtansicht&f=geocode/);
  assert.equal(await total(page), '1–3 von 3');
  await page.goBack();
  await page
    .getByRole('row', { name: /Berlin/ })
    .getByRole('link', { name: 'Orte in der Nähe' })
    .click();
  await page.waitForURL(/\/places\?q=Stadtansicht&pt=.*&d=100$/);
  // Leipzig is about 149 km from Berlin: outside the 100 km.
  assert.deepEqual(await rows(), [['Berlin', '52,52437, 13,41053', '2', '0 km', 'Orte in der Nähe']]);
  await page.getByLabel('Umkreis in km').fill('200');
  await page.getByLabel('Umkreis in km').press('Enter');
  await page.waitForURL(/d=200$/);
  assert.deepEqual(
    (await rows()).map((r) => r[0]),
    ['Berlin', 'Leipzig'],
  );

  // The persons index by initial, and a person's items.
  await page.goto(`${base}/`);
  await page.getByRole('link', { name: 'Personen', exact: true }).click();
  await page.waitForURL(/\/persons$/);
  await checkAccessibility(page.url());
  await page.getByRole('navigation', { name: 'Nach Anfangsbuchstabe' }).getByRole('link', { name: 'J', exact: true }).click();
  await page.waitForURL(/initial=J$/);
  const names = await page.locator('.persons-list .name').allTextContents();
  assert.ok(names.length > 0 && names.every((n) => n.startsWith('J')), names.join(', '));
  await page.locator('.persons-list a', { hasText: 'Johann Wolfgang von Goethe' }).click();
  await page.waitForURL(/\/person\/118540238$/);

  // An item's similar items lead to another item.
  await page.goto(`${base}/item/GIXCHA7RTIIXI35PYABW46BHNE2SES5G`);
  const similar = page.locator('.similar li.hit a');
  assert.equal(await similar.count(), 6);
  await checkAccessibility(page.url());
  await similar.first().click();
  await page.waitForURL((u) => /\/item\/[A-Z0-9]{32}$/.test(u.pathname) && !u.pathname.endsWith('GIXCHA7RTIIXI35PYABW46BHNE2SES5G'));
  await checkAccessibility(`${base}/`);
  await page.close();
});
