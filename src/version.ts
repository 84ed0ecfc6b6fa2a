/**
 * The version of this service: package.json's, read once at start. The
 * relative path holds from src/ (tsx) and from dist/ (the build) alike.
 */
import { readFileSync } from 'node:fs';

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string') throw new Error('package.json has no version');
  return pkg.version;
}

export const VERSION: string = readVersion();
