/**
 * The table of docs/errors.md, rendered from the catalog. The test in
 * test/errors/catalog.test.ts fails when the file and the catalog differ;
 * `npm run docs:errors` rewrites the file.
 */
import { ERRORS, type ErrorDefinition } from './errors.js';

export const ERRORS_DOC_BEGIN = '<!-- errors:begin (generated from src/errors.ts by `npm run docs:errors`) -->';
export const ERRORS_DOC_END = '<!-- errors:end -->';

export function errorsTable(): string {
  const rows = Object.entries(ERRORS).map(([key, def]) => {
    const d = def as ErrorDefinition<unknown[]>;
    const message = d.message(...d.params.map((p) => `{${p}}`)).replace(/\|/g, '\\|');
    return `| \`${key}\` | ${d.status} | \`${d.name}\` | ${message} |`;
  });
  return ['| key | status | name | message |', '|---|---|---|---|', ...rows].join('\n');
}
