/**
 * The pages in a real browser (docs/pages.md "Tests"): headless Chromium (Debian's `chromium`
 * package) driven by playwright-core, on the real server over a socket, with the demo's
 * records and an archive whose titles hold markup. A visitor searches, follows and removes
 * a facet, pages, opens an item, walks the breadcrumb up and the children down, opens the
 * tree and a person; axe-core checks every page (no serious or critical violation).
 *
 * Not part of `npm test` (a fresh machine has no Chromium): `npm run test:browser`, which
 * .ci/run runs after installing the package. Without /usr/bin/chromium it fails and says
 * how to install it. (docs/screenshots/ is written by scripts/screenshots.ts.)
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { buildServer } from '../../src/http/server.js';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { BACKENDS } from '../helpers/backends.js';
import { jpegImage } from '../helpers/images.js';
import { FIXTURES } from '../helpers/paths.js';
import { hostileArchive, writePagePackages } from '../web/pagePackages.js';

const CHROMIUM = '/usr/bin/chromium';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let browser: Browser;
let context: BrowserContext;
let app: FastifyInstance;
let base: string;
let dispose: () => Promise<void>;
const profile = mkdtempSync(join(tmpdir(), 'heritage-api-chromium-'));

before(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: the browser test drives Debian's Chromium. Install it with \`apt-get install -y chromium\` (as root), then run \`npm run test:browser\` again.`,
    );
  }
  const opened = await BACKENDS[0]!.open();
  dispose = opened.dispose;
  await ingestItems(opened.store, [`${FIXTURES}items/cortex`, `${FIXTURES}items/edm`, writePagePackages(hostileArchive())], {
    batchSize: 500,
  });
  await ingestEntities(opened.store, [`${FIXTURES}persons`], { batchSize: 500 });
  // A media directory with an image at each thumbnail path, so that /binary/… answers (grey JPEGs).
  const media = join(profile, 'media');
  const image = jpegImage(120, 90);
  for (const id of await opened.store.listItemIds({ limit: 100_000 })) {
    mkdirSync(join(media, id, 'list'), { recursive: true });
    // The packages built from EDM name their file 1.bin; a browser draws an image by its bytes.
    for (const name of ['1.jpg', '1.bin']) writeFileSync(join(media, id, 'list', name), image);
  }
  const config = loadConfig({ flags: { store: BACKENDS[0]!.config(opened.location), server: { port: 0 }, media: { path: media } } });
  app = await buildServer(config, opened.store, { logging: false });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
  // launchPersistentContext: a fresh profile directory of our own (--user-data-dir).
  context = await chromium.launchPersistentContext(join(profile, 'chromium'), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    // axe-core is injected as a script; the pages' CSP allows none.
    bypassCSP: true,
    locale: 'de-DE',
    viewport: { width: 1280, height: 900 },
  });
  browser = context.browser()!;
  void browser;
});

after(async () => {
  await context?.close();
  await app?.close();
  await dispose?.();
  rmSync(profile, { recursive: true, force: true });
});

/** axe-core's serious and critical violations of the page as it stands. */
async function checkAccessibility(page: Page, name: string): Promise<void> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const result = await (
      globalThis as unknown as {
        axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }> }> };
      }
    ).axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious, [], `${name}: ${JSON.stringify(serious, null, 1)}`);
}

/** Checks the page (the name says which, in a failure). */
async function visit(page: Page, name: string): Promise<void> {
  await checkAccessibility(page, name);
}

test('a visitor searches, filters, pages, reads an item, walks its hierarchy and opens a person', async () => {
  const page = await context.newPage();
  await page.goto(`${base}/`);
  assert.equal(await page.locator('h1').textContent(), 'Sammlung');
  assert.equal(await page.getAttribute('html', 'lang'), 'de');
  await visit(page, 'home');

  // Search from the home page's box, with the keyboard.
  await page.getByLabel('Suche in Objekten und Personen').fill('Combat');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/search\?q=Combat$/);
  const total = await page.locator('p.total').textContent();
  assert.match(total!, /^1–20 von \d+$/);
  await visit(page, 'search');

  // Follow a facet, see it as a filter, remove it.
  const facet = page.locator('section.facet a').first();
  const facetLabel = (await facet.locator('.label').textContent())!;
  await facet.click();
  await page.waitForURL(/[?&]f=/);
  const chip = page.locator('.active-filters a.chip');
  assert.match((await chip.textContent())!, new RegExp(facetLabel.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  await chip.click();
  await page.waitForURL(/\/search\?q=Combat$/);
  assert.equal(await page.locator('.active-filters').count(), 0);

  // Page on, and back.
  await page.getByRole('link', { name: 'Weiter' }).first().click();
  await page.waitForURL(/page=2/);
  assert.match((await page.locator('p.total').textContent())!, /^21–40 von /);

  // An issue of the periodical, three levels deep: open it from the results.
  await page.goto(`${base}/search?q=${encodeURIComponent('"Combat (1974)13"')}`);
  await page.locator('li.hit a').first().click();
  await page.waitForURL(/\/item\/TUDVNP6I2PTCLZEABBM34RV6ZVJDFV6H$/);
  assert.equal(await page.locator('h1').textContent(), 'Combat (1974)13');
  await visit(page, 'item');

  // Up the breadcrumb: the year, then the periodical.
  const crumbs = page.locator('nav.breadcrumb a');
  assert.equal(await crumbs.count(), 2);
  await crumbs.nth(1).click();
  await page.waitForURL(/\/item\/G53HVTNXHGBYEWUH5MFAYL47CDIFQJU4$/);
  assert.equal(await page.locator('h1').textContent(), 'Combat (1974)');
  await page.locator('nav.breadcrumb a').first().click();
  await page.waitForURL(/\/item\/WTJM2UE6ZMFKKSWS7TCDY6U2R4EQEHJG$/);
  assert.equal(await page.locator('h1').textContent(), "Combat : hebdomadaire wallon d'action socialiste");
  await visit(page, 'item-root');

  // Down the children: a year, then an issue of it.
  await page.locator('ol.children a').first().click();
  await page.waitForURL(/\/item\/[A-Z0-9]{32}$/);
  assert.match((await page.locator('h1').textContent())!, /^Combat \(\d{4}\)$/);
  await page.locator('ol.children a').first().click();
  assert.match((await page.locator('h1').textContent())!, /^Combat \(\d{4}\)\d\d$/);
  assert.equal(await page.locator('nav.breadcrumb a').count(), 2);

  // The tree of the collection, opened down to this issue.
  await page.getByRole('link', { name: 'Hierarchie durchblättern' }).click();
  await page.waitForURL(/\/tree$/);
  assert.equal(await page.locator('nav.tree [aria-current="page"]').count(), 1);
  await visit(page, 'tree');

  // A title holding markup shows as text, and no script of it runs.
  let dialogs = 0;
  page.on('dialog', (d) => {
    dialogs++;
    void d.dismiss();
  });
  await page.goto(`${base}/item/FILE01`);
  assert.equal(await page.locator('h1').textContent(), 'File 01 <script>alert("x")</script> ]]> & \'quoted\'');
  assert.equal(await page.locator('main script').count(), 0);
  assert.equal(dialogs, 0);
  // Its media: image 1 drawn from the one rendition the folder holds, image 2 (not there) a placeholder, no broken image.
  const pictures = page.locator('ul.media li');
  assert.equal(await pictures.count(), 2);
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('ul.media img');
    return img !== null && img.complete && img.naturalWidth > 0;
  });
  assert.equal(await pictures.nth(1).locator('img').count(), 0);
  assert.ok(await pictures.nth(1).locator('.ph').isVisible());
  assert.equal(await page.locator('ul.files a').count(), 0, 'the files the folder does not hold are not linked');
  await visit(page, 'item-media');

  // A person from the results, and an item that refers to the person.
  await page.goto(`${base}/search?q=Goethe`);
  await page.locator('section.persons a', { hasText: 'Johann Wolfgang von Goethe' }).click();
  await page.waitForURL(/\/person\/118540238$/);
  assert.equal(await page.locator('h1').textContent(), 'Johann Wolfgang von Goethe');
  assert.equal(await page.getByRole('link', { name: /Eintrag in der GND/ }).getAttribute('href'), 'https://d-nb.info/gnd/118540238');
  await visit(page, 'person');
  await page.locator('li.hit a').first().click();
  await page.waitForURL(/\/item\//);

  // The language switch.
  await page.getByRole('link', { name: 'English' }).click();
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  assert.equal(await page.locator('#details').textContent(), 'Details');
  await page.close();
});

test('search engines: the sitemap index and a page parse as XML in the browser; an item and a person page carry schema.org JSON-LD', async () => {
  const page = await context.newPage();
  await page.goto(`${base}/`);
  /** The <loc>s of a sitemap document, parsed by the browser's own XML parser. */
  const locsOf = (path: string) =>
    page.evaluate(async (p) => {
      const text = await (await fetch(p)).text();
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      if (doc.getElementsByTagName('parsererror').length > 0) throw new Error(`${p} is not well-formed XML`);
      return [...doc.getElementsByTagNameNS('http://www.sitemaps.org/schemas/sitemap/0.9', 'loc')].map((l) => l.textContent ?? '');
    }, path);
  const sitemaps = await locsOf('/sitemap.xml');
  assert.ok(sitemaps.includes(`${base}/sitemap/items-1.xml`) && sitemaps.includes(`${base}/sitemap/persons-1.xml`), sitemaps.join(' '));
  const items = await locsOf('/sitemap/items-1.xml');
  assert.ok(items.includes(`${base}/item/FILE01`), 'the item pages are listed');
  const persons = await locsOf('/sitemap/persons-1.xml');
  assert.ok(persons.includes(`${base}/person/118540238`), 'the person pages are listed');

  /** The page's JSON-LD, as a crawler reads it from the rendered document, and its h1. */
  const jsonLdOf = async (url: string) => {
    await page.goto(url);
    return page.evaluate(() => ({
      ld: JSON.parse(document.querySelector('script[type="application/ld+json"]')?.textContent ?? 'null') as Record<string, unknown>,
      h1: document.querySelector('h1')?.textContent ?? '',
      canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? '',
      ogTitle: document.querySelector('meta[property="og:title"]')?.getAttribute('content') ?? '',
    }));
  };
  const item = await jsonLdOf(`${base}/item/FILE01`);
  assert.equal(item.ld['@type'], 'CreativeWork');
  assert.equal(item.ld.name, item.h1, 'the JSON-LD names the item as the page does, markup and all');
  assert.equal(item.ogTitle, item.h1);
  assert.equal(item.canonical, `${base}/item/FILE01`);
  const person = await jsonLdOf(`${base}/person/118540238`);
  assert.equal(person.ld['@type'], 'Person');
  assert.equal(person.ld.name, person.h1);
  assert.deepEqual(person.ld.sameAs, ['https://d-nb.info/gnd/118540238']);
  await page.close();
});
