/**
 * The error catalog and docs/errors.md stay in step (one catalog of every
 * error: docs/decisions.md "Errors"), and every entry is well-formed; so do the codes of
 * the errors below HTTP (src/errorCodes.ts), and the one mapping (src/http/errorMapping.ts)
 * answers an error of each code as the table says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { StoreBusyError, StoreUnreachableError } from '../../src/domain/storeErrors.js';
import { ERROR_CODES, errorCodeOf, type ErrorCode } from '../../src/errorCodes.js';
import { ApiError, ERRORS, type ErrorDefinition, type ErrorKey } from '../../src/errors.js';
import { CODES_DOC_BEGIN, CODES_DOC_END, errorCodesTable, ERRORS_DOC_BEGIN, ERRORS_DOC_END, errorsTable } from '../../src/errorsDoc.js';
import { answerOf } from '../../src/http/errorMapping.js';
import { QuerySyntaxError } from '../../src/query/errors.js';
import { SearchDeadlineError, SearchRequestError } from '../../src/search/engine/errors.js';
import { SearchBusyError, SearchLimitError, SearchOverBudgetError } from '../../src/search/engine/searchLimits.js';

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

test('docs/errors.md lists exactly the codes of src/errorCodes.ts (run `npm run docs:errors` after changing it)', () => {
  const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const table = doc.slice(doc.indexOf(CODES_DOC_BEGIN) + CODES_DOC_BEGIN.length, doc.indexOf(CODES_DOC_END)).trim();
  assert.equal(table, errorCodesTable());
});

/** An error of every code, as its raisers make it, with the answer (status, name, message, headers) it must get. */
const SETTINGS = { timeBudgetMs: 2500 };
const retry = (seconds: number) => ({ 'Retry-After': String(seconds) });
const CASES: Array<{ error: Error; key: ErrorKey; message: string; headers?: Record<string, string> }> = [
  {
    error: new QuerySyntaxError(7, "a term after '('"),
    key: 'invalidQuery',
    message: "Query syntax error at position 7: expected a term after '('. See the query syntax in docs/api.md (Lucene standard syntax).",
  },
  { error: new SearchRequestError('the cursor is of another search.'), key: 'invalidSearch', message: 'the cursor is of another search.' },
  {
    error: new SearchLimitError({ key: 'tooManyClauses', clauses: 1200, max: 1024 }),
    key: 'tooManyClauses',
    message: ERRORS.tooManyClauses.message(1200, 1024),
  },
  {
    error: new SearchLimitError({ key: 'wildcardTooBroad', pattern: 'a*', max: 1000 }),
    key: 'wildcardTooBroad',
    message: ERRORS.wildcardTooBroad.message('a*', 1000),
  },
  { error: new SearchLimitError({ key: 'queryTooBroad', max: 5000 }), key: 'queryTooBroad', message: ERRORS.queryTooBroad.message(5000) },
  {
    error: new SearchOverBudgetError(300),
    key: 'searchOverBudget',
    message: ERRORS.searchOverBudget.message(300, 1),
    headers: retry(1),
  },
  // A deadline of a search on this thread carries no budget: the config's.
  { error: new SearchDeadlineError(), key: 'searchOverBudget', message: ERRORS.searchOverBudget.message(2500, 3), headers: retry(3) },
  { error: new SearchBusyError(2500), key: 'searchBusy', message: ERRORS.searchBusy.message(3), headers: retry(3) },
  {
    error: new StoreUnreachableError('db.example:5432', 'The PostgreSQL server at db.example:5432 does not answer.'),
    key: 'storeUnavailable',
    message: ERRORS.storeUnavailable.message(1),
    headers: retry(1),
  },
  {
    error: new StoreBusyError('/var/lib/store.db', 5),
    key: 'storeUnavailable',
    message: ERRORS.storeUnavailable.message(1),
    headers: retry(1),
  },
];

test('an error of each code gets the catalog answer src/errorCodes.ts lists for it, by its code alone', () => {
  const seen = new Set<ErrorCode>();
  for (const { error, key, message, headers } of CASES) {
    const code = errorCodeOf(error);
    assert.ok(code !== undefined, error.constructor.name);
    seen.add(code);
    assert.ok((ERROR_CODES[code].answers as readonly ErrorKey[]).includes(key), `${code} lists ${key}`);
    const { api } = answerOf(error, SETTINGS, 'r1');
    assert.deepEqual(
      [api.status, api.errorName, api.message, api.headers],
      [ERRORS[key].status, ERRORS[key].name, message, headers ?? {}],
      error.constructor.name,
    );
  }
  assert.deepEqual([...seen].sort(), Object.keys(ERROR_CODES).sort(), 'every code is tried');
});

test('an ApiError is its own answer; an error without one of our codes is a 500 with the request id, logged', () => {
  const own = ApiError.of('itemNotFound', 'X');
  assert.deepEqual(answerOf(own, SETTINGS, 'r1'), { api: own });
  const enoent = Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
  for (const error of [new Error('boom'), enoent, 'a string']) {
    const { api, log } = answerOf(error, SETTINGS, 'r7');
    assert.deepEqual([api.status, api.errorName, api.message, log], [500, 'GeneralException', ERRORS.internal.message('r7'), 'internal']);
  }
});
