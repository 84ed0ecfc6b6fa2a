/**
 * The bench's report goes into docs/benchmarks.md as its backend's section (bench/report.ts): a
 * PostgreSQL run must not overwrite the SQLite table, nor the notes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replaceSection } from '../../bench/report.js';

const doc = [
  '# Benchmarks',
  '',
  'Sections between `<!-- bench:sqlite -->` and `<!-- /bench:sqlite -->`: the text may name the markers.',
  '',
  '<!-- bench:sqlite -->',
  '## SQLite',
  '| old sqlite row |',
  '<!-- /bench:sqlite -->',
  '',
  '### Notes kept by hand',
  '',
].join('\n');

test('a backend without a section gets one at the end; the other sections and the notes stay', () => {
  const out = replaceSection(doc, 'postgres', '## PostgreSQL\n| pg row |\n');
  assert.equal(out, `${doc.trimEnd()}\n\n<!-- bench:postgres -->\n## PostgreSQL\n| pg row |\n<!-- /bench:postgres -->\n`);
});

test('a backend with a section has it replaced, and only it', () => {
  const withPg = replaceSection(doc, 'postgres', '## PostgreSQL\n| pg row |\n');
  const out = replaceSection(withPg, 'sqlite', '## SQLite\n| new sqlite row |\n');
  assert.equal(out, withPg.replace('## SQLite\n| old sqlite row |', '## SQLite\n| new sqlite row |'));
  assert.equal(replaceSection(out, 'postgres', '## PostgreSQL\n| pg row 2 |'), out.replace('| pg row |', '| pg row 2 |'));
});
