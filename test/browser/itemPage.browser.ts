/**
 * The item page in a real browser (docs/pages.md "Item page"): headless Chromium (Debian's
 * `chromium`, driven by playwright-core) on the real server over a socket, with the pages' own
 * CSP in force (no bypass). Records built from EDM name their media at two stand-in origins,
 * local HTTP servers of this test: one the operator allows (`media.origins`), one not; a
 * generated media folder holds one file. It checks that pictures really load, from the folder
 * first, else from the allowed origin, and never from the other; that the viewer opens from our
 * manifest with OpenSeadragon from our origin and paints the image; that the page works without
 * JavaScript; that sound plays in <audio>; the dark and print styles; and axe-core on each.
 *
 * `npm run test:browser` runs it with test/browser/pages.browser.ts; without /usr/bin/chromium it
 * fails and says how to install it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { buildServer } from '../../src/http/server.js';
import { ingestEntities } from '../../src/ingest/ingestEntities.js';
import { ingestItems } from '../../src/ingest/ingestItems.js';
import { BACKENDS } from '../helpers/backends.js';
import { jpegImage } from '../helpers/images.js';
import { FIXTURES } from '../helpers/paths.js';
import { tempDir } from '../helpers/tempDir.js';
import { writeEdmMediaRecords } from '../web/edmMediaRecords.js';

const CHROMIUM = '/usr/bin/chromium';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A stand-in origin: answers the images and sound it holds, and counts what it was asked. */
interface Origin {
  url: string;
  asked: string[];
  server: Server;
}

/** Half a second of a 440 Hz tone, 8 kHz mono 16-bit PCM in a RIFF WAVE file. */
function wavTone(): Buffer {
  const rate = 8000;
  const samples = rate / 2;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), i * 2);
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8, 'latin1');
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36, 'latin1');
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

async function startOrigin(files: Record<string, [string, Buffer]>): Promise<Origin> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url ?? '');
    const file = files[req.url ?? ''];
    if (file === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file[0], 'content-length': file[1].length }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked, server };
}

let context: BrowserContext;
let app: FastifyInstance;
let base: string;
let dispose: () => Promise<void>;
let allowed: Origin;
let other: Origin;
const profile = tempDir('chromium-item');

before(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: the browser test drives Debian's Chromium. Install it with \`apt-get install -y chromium\` (as root), then run \`npm run test:browser\` again.`,
    );
  }
  allowed = await startOrigin({
    '/img/a.jpg': ['image/jpeg', jpegImage(320, 240)],
    '/img/b.jpg': ['image/jpeg', jpegImage(240, 320)],
    '/img/local.jpg': ['image/jpeg', jpegImage(16, 16)],
    '/av/tone.wav': ['audio/wav', wavTone()],
  });
  other = await startOrigin({ '/x.jpg': ['image/jpeg', jpegImage(100, 100)] });
  const records = writeEdmMediaRecords([
    {
      id: 'EDMORIGIN01',
      title: 'Vom Ursprung',
      media: [`${allowed.url}/img/a.jpg`, `${allowed.url}/img/b.jpg`],
      types: ['image/jpeg', 'image/jpeg'],
      creator: { gnd: '118540238', name: 'Goethe, Johann Wolfgang von' },
      subject: 'Reise',
      date: '1790-05-01',
    },
    { id: 'EDMELSEWHERE', title: 'Anderswo', media: [`${other.url}/x.jpg`], types: ['image/jpeg'] },
    { id: 'EDMLOCAL', title: 'Hier', media: [`${allowed.url}/img/local.jpg`], types: ['image/jpeg'] },
    { id: 'EDMSOUND', title: 'Klang', media: [`${allowed.url}/av/tone.wav`], types: ['audio/x-wav'] },
  ]);
  // The generated media folder: one large picture, for the viewer to zoom into.
  const media = join(profile, 'media');
  const local = join(media, 'EDMLOCAL/list/1.jpg');
  mkdirSync(dirname(local), { recursive: true });
  writeFileSync(local, jpegImage(1600, 1200));

  const opened = await BACKENDS[0]!.open();
  dispose = opened.dispose;
  await ingestItems(opened.store, [records], { batchSize: 100 });
  await ingestEntities(opened.store, [`${FIXTURES}persons`], { batchSize: 500 });
  const config = loadConfig({
    flags: { store: BACKENDS[0]!.config(opened.location), server: { port: 0 }, media: { path: media, origins: [allowed.url] } },
  });
  app = await buildServer(config, opened.store, { logging: false });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
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
      '--autoplay-policy=no-user-gesture-required',
    ],
    locale: 'de-DE',
    viewport: { width: 1280, height: 900 },
  });
});

after(async () => {
  await context?.close();
  await app?.close();
  await dispose?.();
  for (const o of [allowed, other]) await new Promise((resolve) => o?.server.close(resolve));
});

/** A page that records what the CSP refused and every URL it asked for. */
async function open(path: string, ctx: BrowserContext = context): Promise<{ page: Page; refused: string[]; requested: string[] }> {
  const page = await ctx.newPage();
  const refused: string[] = [];
  const requested: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
  });
  page.on('request', (r) => requested.push(r.url()));
  await page.goto(`${base}${path}`);
  await page.waitForLoadState('networkidle');
  return { page, refused, requested };
}

/** axe-core's serious and critical violations, run under the page's own CSP (evaluated over the DevTools protocol, not as a script element). */
async function assertAccessible(page: Page, name: string): Promise<void> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const result = await (
      globalThis as unknown as {
        axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> };
      }
    ).axe.run();
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  assert.deepEqual(violations, [], `${name}: ${JSON.stringify(violations)}`);
}

/** Each picture of the item once it has settled: where it came from and its width (0: broken). */
async function images(page: Page): Promise<Array<{ src: string; width: number }>> {
  await page.evaluate(() => document.querySelectorAll('.media img').forEach((img) => void ((img as HTMLImageElement).loading = 'eager')));
  await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.media img')].every((img) => img.complete));
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLImageElement>('.media img')].map((img) => ({ src: img.currentSrc, width: img.naturalWidth })),
  );
}

test('pictures of records built from EDM load from their origin, which the CSP allows; an origin not named is never asked', async () => {
  const { page, refused } = await open('/item/EDMORIGIN01');
  assert.deepEqual(await images(page), [
    { src: `${allowed.url}/img/a.jpg`, width: 320 },
    { src: `${allowed.url}/img/b.jpg`, width: 240 },
  ]);
  assert.ok(allowed.asked.includes('/img/a.jpg') && allowed.asked.includes('/img/b.jpg'));
  assert.deepEqual(refused, []);
  // The name links to the person page, the subject to a search that finds the item.
  await page.getByRole('link', { name: 'Goethe, Johann Wolfgang von' }).click();
  await page.waitForURL(/\/person\/118540238$/);
  await page.goBack();
  await page.getByRole('link', { name: 'Reise' }).click();
  await page.waitForURL(/\/search\?q=%22Reise%22$/);
  assert.equal(await page.locator('li.hit a[href="/item/EDMORIGIN01"]').count(), 1);
  await page.close();

  // The results too: the thumbnails of the records whose pictures can be shown, loaded.
  const results = await open('/search?sort=title');
  const thumbnails = await results.page.evaluate(async () => {
    const pictures = [...document.querySelectorAll<HTMLImageElement>('.hit img')];
    pictures.forEach((img) => void (img.loading = 'eager'));
    await Promise.all(pictures.map((img) => img.decode().catch(() => undefined)));
    return pictures.map((img) => ({ src: img.currentSrc, width: img.naturalWidth }));
  });
  assert.deepEqual(thumbnails, [
    { src: `${base}/binary/EDMLOCAL/list/1.jpg`, width: 1600 },
    { src: `${allowed.url}/img/a.jpg`, width: 320 },
  ]);
  assert.deepEqual(results.refused, []);
  await assertAccessible(results.page, 'results with pictures from their origin');
  await results.page.close();

  const elsewhere = await open('/item/EDMELSEWHERE');
  assert.deepEqual(await images(elsewhere.page), []);
  assert.equal(
    await elsewhere.page.locator(`a.pic[href="${other.url}/x.jpg"]`).textContent(),
    'Bild · JPEG: Anderswo 1, beim Datengeber ansehen',
  );
  assert.deepEqual(other.asked, [], 'the page never asked the origin the operator did not name');
  await assertAccessible(elsewhere.page, 'item, picture elsewhere');
  await elsewhere.page.close();

  const local = await open('/item/EDMLOCAL');
  assert.deepEqual(
    (await images(local.page)).map((i) => i.width),
    [1600],
  );
  assert.equal((await images(local.page))[0]!.src, `${base}/binary/EDMLOCAL/list/1.jpg`);
  assert.ok(!allowed.asked.includes('/img/local.jpg'), 'the folder first: its origin is not asked');
  await local.page.close();
});

test('a picture opens the viewer, from our manifest, with OpenSeadragon from our origin, and it paints the picture', async () => {
  const { page, refused, requested } = await open('/item/EDMLOCAL');
  const viewer = page.locator('section.viewer');
  // Nothing of the viewer until a picture is opened (docs/pages.md "Viewer").
  assert.equal(await viewer.isVisible(), false);
  assert.ok(!requested.includes(`${base}/assets/openseadragon.min.js`), 'OpenSeadragon not loaded before it is needed');
  assert.ok(!requested.includes(`${base}/item/EDMLOCAL/iiif`), 'the manifest not read before it is needed');
  // A picture of the page opens in the viewer instead of as a file.
  await page.locator('.media a.pic').click();
  await viewer.waitFor({ state: 'visible' });
  assert.equal(page.url(), `${base}/item/EDMLOCAL`);
  await page.waitForSelector('section.viewer[data-loaded="true"]');
  // OpenSeadragon draws into a canvas; the middle of the picture is its grey.
  const pixel = await page.evaluate(() => {
    const canvas = document.querySelector('section.viewer canvas') as HTMLCanvasElement;
    const data = canvas.getContext('2d')!.getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data;
    return [data[0], data[1], data[2], data[3]];
  });
  assert.equal(pixel[3], 255, `an opaque pixel of the picture, got ${pixel.join(',')}`);
  assert.ok(Math.abs(pixel[0]! - pixel[1]!) < 8 && Math.abs(pixel[1]! - pixel[2]!) < 8 && pixel[0]! > 60, `grey, got ${pixel.join(',')}`);
  assert.ok(requested.includes(`${base}/item/EDMLOCAL/iiif`), 'our manifest');
  assert.ok(requested.includes(`${base}/assets/openseadragon.min.js`), 'OpenSeadragon from our origin');
  assert.deepEqual(
    requested.filter((u) => !u.startsWith(`${base}/`)),
    [],
    'nothing from another origin (no CDN)',
  );
  assert.deepEqual(refused, []);
  // Zoom in with the keyboard: the viewer takes focus and the picture grows.
  const zoom = () => page.evaluate(() => (document.querySelector('section.viewer canvas') as HTMLCanvasElement).toDataURL().length);
  const before = await zoom();
  await page.locator('section.viewer .openseadragon-canvas').focus();
  await page.keyboard.press('+');
  await page.waitForFunction(
    (b) => (document.querySelector('section.viewer canvas') as HTMLCanvasElement).toDataURL().length !== b,
    before,
  );
  // A record built from EDM: the viewer paints its pictures from their allowed origin, as the page shows them.
  const origin = await open('/item/EDMORIGIN01');
  // The second picture opens the viewer on its own canvas.
  await origin.page.locator('.media a.pic').nth(1).click();
  await origin.page.waitForSelector('section.viewer[data-loaded="true"]');
  assert.equal(origin.page.url(), `${base}/item/EDMORIGIN01`);
  assert.deepEqual(origin.refused, []);
  await origin.page.close();
  await assertAccessible(page, 'item with the viewer open');
  await page.close();
});

test('without JavaScript the page is whole: no viewer, the picture and its link', async () => {
  // A persistent context cannot make another with scripts off: the page's scripts are refused instead.
  const page = await context.newPage();
  await page.route('**/*.js', (route) => route.abort());
  await page.goto(`${base}/item/EDMLOCAL`);
  await page.waitForLoadState('networkidle');
  assert.equal(await page.locator('section.viewer').isVisible(), false);
  assert.deepEqual(
    (await images(page)).map((i) => i.width),
    [1600],
  );
  assert.equal(await page.locator('.media a.pic').getAttribute('href'), '/binary/EDMLOCAL/list/1.jpg');
  await page.close();
});

test('sound plays in the browser’s own <audio>, from its origin', async () => {
  const { page, refused } = await open('/item/EDMSOUND');
  const duration = await page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const audio = document.querySelector('audio')!;
        audio.addEventListener('loadedmetadata', () => resolve(audio.duration));
        audio.addEventListener('error', () => reject(new Error(`audio error ${audio.error?.code}`)));
        audio.preload = 'metadata';
        audio.load();
      }),
  );
  assert.ok(Math.abs(duration - 0.5) < 0.01, `half a second, got ${duration}`);
  assert.ok(allowed.asked.includes('/av/tone.wav'));
  assert.deepEqual(refused, []);
  await assertAccessible(page, 'item with sound');
  await page.close();
});

test('dark colours where the visitor prefers them, axe-clean; on paper the record without navigation or viewer', async () => {
  const { page } = await open('/item/EDMLOCAL');
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'rgb(18, 23, 29)');
  await assertAccessible(page, 'item, dark');
  await page.emulateMedia({ colorScheme: 'light', media: 'print' });
  const shown = await page.evaluate(() =>
    ['header.site', 'section.viewer', 'footer.site', 'section.cite', 'h1'].map((s) => getComputedStyle(document.querySelector(s)!).display),
  );
  assert.deepEqual(shown, ['none', 'none', 'none', 'block', 'block']);
  await page.close();
});
