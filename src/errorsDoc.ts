/**
 * The generated tables of docs/errors.md: the catalog (src/errors.ts) and the codes of the
 * errors below HTTP (src/errorCodes.ts). The test in test/errors/catalog.test.ts fails when
 * the file and the sources differ; `npm run docs:errors` rewrites the file.
 */
import { ERROR_CODES, type ErrorCodeEntry } from './errorCodes.js';
import { ERRORS, type ErrorDefinition } from './errors.js';

export const ERRORS_DOC_BEGIN = '<!-- errors:begin (generated from src/errors.ts by `npm run docs:errors`) -->';
export const ERRORS_DOC_END = '<!-- errors:end -->';
export const CODES_DOC_BEGIN = '<!-- codes:begin (generated from src/errorCodes.ts by `npm run docs:errors`) -->';
export const CODES_DOC_END = '<!-- codes:end -->';

export function errorsTable(): string {
  const rows = Object.entries(ERRORS).map(([key, def]) => {
    const d = def as ErrorDefinition<unknown[]>;
    const message = d.message(...d.params.map((p) => `{${p}}`)).replace(/\|/g, '\\|');
    return `| \`${key}\` | ${d.status} | \`${d.name}\` | ${message} |`;
  });
  return ['| key | status | name | message |', '|---|---|---|---|', ...rows].join('\n');
}

export function errorCodesTable(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, def]) => {
    const d = def as ErrorCodeEntry;
    const answers = d.answers.map((key) => `\`${key}\` (${ERRORS[key].status} \`${ERRORS[key].name}\`)`).join(', ');
    return `| \`${code}\` | ${d.raisedBy} | ${d.when} | ${answers} |`;
  });
  return ['| code | raised by | when | answered with |', '|---|---|---|---|', ...rows].join('\n');
}

/** `text` with the part between `begin` and `end` replaced by `table`. */
export function withTable(text: string, begin: string, end: string, table: string): string {
  const start = text.indexOf(begin);
  const stop = text.indexOf(end);
  if (start < 0 || stop < 0) throw new Error(`docs/errors.md lacks the markers ${begin} and ${end}`);
  return `${text.slice(0, start + begin.length)}\n${table}\n${text.slice(stop)}`;
}
