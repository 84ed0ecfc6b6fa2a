/**
 * The error catalog and docs/errors.md stay in step (one catalog of every
 * error: docs/decisions.md "Errors"), and every entry is well-formed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ERRORS, type ErrorDefinition } from '../../src/errors.js';
import { ERRORS_DOC_BEGIN, ERRORS_DOC_END, errorsTable } from '../../src/errorsDoc.js';

test('docs/errors.md lists exactly the catalog (run `npm run docs:errors` after changing src/errors.ts)', () => {
  const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const table = doc.slice(doc.indexOf(ERRORS_DOC_BEGIN) + ERRORS_DOC_BEGIN.length, doc.indexOf(ERRORS_DOC_END)).trim();
  assert.equal(table, errorsTable());
  // Every key appears once, by name.
  for (const key of Object.keys(ERRORS)) assert.equal(table.split(`| \`${key}\` |`).length, 2, key);
});

test('every catalog entry has an exception-style name, a 4xx/5xx status and a message that ends a sentence', () => {
  for (const [key, def] of Object.entries(ERRORS)) {
    const d = def as ErrorDefinition<unknown[]>;
    assert.match(d.name, /^[A-Z][A-Za-z]+Exception$/, key);
    assert.ok(d.status >= 400 && d.status < 600, key);
    const message = d.message(...d.params.map(() => 'x'));
    assert.ok(d.params.length > 0 || message.length >= 12, key);
    // A sentence, or a message that ends with the caller's own detail.
    assert.match(message, /[.)]$|x$/, key);
  }
});
