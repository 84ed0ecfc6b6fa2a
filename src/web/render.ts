/**
 * The pages' template engine: Eta (maintained, typed, small), with escaping of every
 * interpolation on (`<%= %>` escapes & < > " '; the raw `<%~ %>` only writes the output of
 * other templates, the layout's body and includes, themselves rendered with escaping).
 * Templates (./templates.ts) are compiled once, on first use, and cached.
 */
import { Eta } from 'eta';
import { TEMPLATES } from './templates.js';

export type Renderer = (template: string, data: object) => string;

export function createRenderer(): Renderer {
  const eta = new Eta({ autoEscape: true, cache: true, autoTrim: [false, 'nl'] });
  for (const [name, text] of Object.entries(TEMPLATES)) eta.loadTemplate(`@${name}`, text);
  return (template, data) => eta.render(`@${template}`, data);
}
