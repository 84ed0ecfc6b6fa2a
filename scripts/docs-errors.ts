/** Rewrites the generated tables in docs/errors.md from src/errors.ts and src/errorCodes.ts. */
import { readFileSync, writeFileSync } from 'node:fs';
import {
  CODES_DOC_BEGIN,
  CODES_DOC_END,
  errorCodesTable,
  ERRORS_DOC_BEGIN,
  ERRORS_DOC_END,
  errorsTable,
  withTable,
} from '../src/errorsDoc.js';

const path = new URL('../docs/errors.md', import.meta.url);
const text = readFileSync(path, 'utf8');
const catalog = withTable(text, ERRORS_DOC_BEGIN, ERRORS_DOC_END, errorsTable());
writeFileSync(path, withTable(catalog, CODES_DOC_BEGIN, CODES_DOC_END, errorCodesTable()));
