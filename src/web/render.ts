/**
 * The pages' template engine: Eta (maintained, typed, small), with escaping of every
 * interpolation on (`<%= %>` escapes & < > " '; the templates never use the raw `<%~ %>`
 * but for the layout's body, itself rendered with escaping). Templates are files in
 * src/web/templates, read from the source tree from both src/web and dist/web (both are two
 * levels below the package root), compiled once and cached.
 */
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';

export const TEMPLATES = fileURLToPath(new URL('../../src/web/templates/', import.meta.url));

export type Renderer = (template: string, data: object) => string;

export function createRenderer(): Renderer {
  const eta = new Eta({ views: TEMPLATES, autoEscape: true, cache: true, autoTrim: [false, 'nl'] });
  return (template, data) => eta.render(`./${template}`, data);
}
