/**
 * OpenSeadragon's files as the pages serve them from our own origin (docs/pages.md "Viewer"):
 * its minified script and its button images, read once from the npm package.
 */
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
