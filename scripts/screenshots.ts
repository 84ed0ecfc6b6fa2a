/**
 * Writes the screenshots of docs/screenshots/ (docs/pages.md "Screenshots"): the demo's records
 * in a fresh SQLite store, served with a generated media folder (`media.path`) that holds a
 * picture at every rendition path of every item, so the pages show images without the
 * internet; headless Chromium (Debian's `chromium`, driven by playwright-core) photographs each
 * page at phone (390 px) and desktop (1280 px) width. The pictures are stand-ins: a landscape
 * of a colour drawn from the item's id, the same on every run.
 *
 * `npm run screenshots` (or `node --import tsx scripts/screenshots.ts [dir]`, default docs/screenshots).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { loadConfig } from '../src/config.js';
import { buildServer } from '../src/http/server.js';
import { ingestEntities } from '../src/ingest/ingestEntities.js';
import { ingestItems } from '../src/ingest/ingestItems.js';
import { itemView } from '../src/web/itemView.js';
import { SQLITE } from '../test/helpers/backends.js';
import { FIXTURES } from '../test/helpers/paths.js';
import { tempDir } from '../test/helpers/tempDir.js';

const CHROMIUM = '/usr/bin/chromium';
const OUT = resolve(process.argv[2] ?? 'docs/screenshots');
const HOST = 'sammlung.example.org';
const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } } as const;

/** The pages photographed: file name, path, and what to do before (open the viewer). */
const PAGES: ReadonlyArray<{ name: string; path: string; before?: (page: Page) => Promise<void> }> = [
  { name: 'home', path: '/' },
  { name: 'search', path: '/search?q=Combat' },
  { name: 'search-images', path: '/search?f=type_fct%3Amediatype_002' },
  { name: 'item', path: '/item/GIXCHA7RTIIXI35PYABW46BHNE2SES5G' },
  {
    name: 'item-viewer',
    path: '/item/GIXCHA7RTIIXI35PYABW46BHNE2SES5G',
    before: async (page) => {
      await page.locator('.media a.pic').first().click();
      await page.waitForSelector('section.viewer[data-loaded="true"]');
    },
  },
  { name: 'item-root', path: '/item/WTJM2UE6ZMFKKSWS7TCDY6U2R4EQEHJG' },
  { name: 'tree', path: '/item/TUDVNP6I2PTCLZEABBM34RV6ZVJDFV6H/tree' },
  { name: 'person', path: '/person/118540238' },
  { name: 'persons', path: '/persons' },
  { name: 'facet', path: '/facet/provider_fct' },
];

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG (RFC 2083) of a landscape: a sky fading to the horizon over two hills, in the hue `seed` picks. */
function landscape(width: number, height: number, seed: Buffer): Buffer {
  const hue = seed[0]! / 255;
  const rgb = (h: number, s: number, l: number): number[] => {
    const f = (n: number) => {
      const k = (n + h * 12) % 12;
      return Math.round(255 * (l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
    };
    return [f(0), f(8), f(4)];
  };
  const phase = (seed[1]! / 255) * Math.PI * 2;
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const u = x / width;
      const back = height * (0.55 - 0.12 * Math.sin(u * 5 + phase));
      const front = height * (0.72 - 0.1 * Math.sin(u * 3 + phase * 1.7));
      const colour =
        y > front
          ? rgb(hue + 0.25, 0.45, 0.3 + (0.1 * (y - front)) / height)
          : y > back
            ? rgb(hue + 0.3, 0.35, 0.45)
            : rgb(hue + 0.55, 0.6, 0.85 - (0.3 * (back - y)) / height);
      raw.set(colour, row + 1 + x * 3);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

if (!existsSync(CHROMIUM)) {
  console.error(`${CHROMIUM} is missing: install it with \`apt-get install -y chromium\` (as root).`);
  process.exit(1);
}
const dir = tempDir('screenshots');
const opened = await SQLITE.open();
try {
  await ingestItems(opened.store, [`${FIXTURES}items/cortex`, `${FIXTURES}items/edm`], { batchSize: 500 });
  await ingestEntities(opened.store, [`${FIXTURES}persons`], { batchSize: 500 });
  // A picture at every path the item's package names for an image: its renditions and thumbnail.
  const media = join(dir, 'media');
  for (const id of await opened.store.listItemIds({ limit: 100_000 })) {
    const doc = await opened.store.getItemDocument(id, 'json');
    if (doc === undefined) continue;
    const view = itemView(id, JSON.parse(doc.body.toString('utf8')));
    const paths = new Set([view.thumbnail, ...view.images.flatMap((i) => i.renditions.map((r) => r.href))]);
    for (const href of paths) {
      if (!href.startsWith('/binary/')) continue;
      const file = join(media, ...href.slice('/binary/'.length).split('/').map(decodeURIComponent));
      mkdirSync(dirname(file), { recursive: true });
      const seed = createHash('sha256').update(id).digest();
      writeFileSync(file, /\/full\//.test(href) ? landscape(960, 720, seed) : landscape(320, 240, seed));
    }
  }
  const config = loadConfig({
    flags: {
      store: SQLITE.config(opened.location),
      server: { port: 0, trustProxy: true },
      media: { path: media },
      web: { rateLimitMax: 0 },
    },
  });
  const app = await buildServer(config, opened.store, { logging: false });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  // The pages at a host name of their own, not the run's port: the permalink and citation read the same on every run.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', `--host-resolver-rules=MAP ${HOST} ${new URL(base).host}`],
  });
  try {
    mkdirSync(OUT, { recursive: true });
    for (const [width, viewport] of Object.entries(WIDTHS)) {
      const context = await browser.newContext({ viewport, locale: 'de-DE', deviceScaleFactor: 1 });
      for (const { name, path, before } of PAGES) {
        const page = await context.newPage();
        await page.goto(`http://${HOST}${path}`);
        await before?.(page);
        // Every picture loaded before the photograph, the lazy ones below the fold too.
        await page.evaluate(() => document.querySelectorAll('img').forEach((img) => void (img.loading = 'eager')));
        await page.waitForFunction(() => [...document.images].every((img) => img.complete));
        const file = join(OUT, `${name}-${width}.png`);
        await page.screenshot({ path: file, fullPage: width === 'desktop' });
        console.log(file);
        await page.close();
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await app.close();
  }
} finally {
  await opened.dispose();
}
