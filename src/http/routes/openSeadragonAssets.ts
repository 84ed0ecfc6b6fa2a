/**
 * OpenSeadragon's files as the pages serve them from our own origin (docs/pages.md "Viewer"):
 * its minified script and its button images, read once from the npm package.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface OpenSeadragonAssets {
  script: Buffer;
  /** Button images by file name (`zoomin_rest.png`). */
  images: ReadonlyMap<string, Buffer>;
}

export function openSeadragonAssets(): OpenSeadragonAssets {
  // The package's main file is build/openseadragon/openseadragon.js; the minified one and images/ sit beside it.
  const dir = dirname(createRequire(import.meta.url).resolve('openseadragon'));
  const images = new Map<string, Buffer>();
  for (const name of readdirSync(join(dir, 'images')))
    if (/^[a-z_]+\.png$/.test(name)) images.set(name, readFileSync(join(dir, 'images', name)));
  return { script: readFileSync(join(dir, 'openseadragon.min.js')), images };
}

/**
 * The one style element OpenSeadragon adds to a page (its focus outline on touch screens), as
 * its 6.x writes it. The pages' CSP allows exactly this text by its hash (CSP 3 "hash-source"),
 * no other inline style; the browser test fails when a new version writes another.
 */
const OPENSEADRAGON_STYLE = '@media (hover: none) {    .openseadragon-canvas:focus {        outline: none !important;    }}';

export const OPENSEADRAGON_STYLE_HASH = `sha256-${createHash('sha256').update(OPENSEADRAGON_STYLE).digest('base64')}`;
