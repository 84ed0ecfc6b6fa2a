/** Rewrites the generated table in docs/errors.md from src/errors.ts. */
import { readFileSync, writeFileSync } from 'node:fs';
import { ERRORS_DOC_BEGIN, ERRORS_DOC_END, errorsTable } from '../src/errorsDoc.js';

const path = new URL('../docs/errors.md', import.meta.url);
const text = readFileSync(path, 'utf8');
const start = text.indexOf(ERRORS_DOC_BEGIN);
const end = text.indexOf(ERRORS_DOC_END);
if (start < 0 || end < 0) throw new Error('docs/errors.md lacks the errors:begin / errors:end markers');
writeFileSync(path, `${text.slice(0, start + ERRORS_DOC_BEGIN.length)}\n${errorsTable()}\n${text.slice(end)}`);
