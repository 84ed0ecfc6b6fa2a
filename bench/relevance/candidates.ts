/**
 * `node --import tsx bench/relevance/candidates.ts <regex>`: the documents of the fixtures
 * whose text matches a regular expression (case-insensitive, Unicode), with the fields it
 * matches in and the words it matched: how the judges found the candidates of a query
 * before reading them (./README.md "How the set was judged"). Prints one line per
 * document: id, the grade the field rule gives (3 title, 2 subtitle/keywords/affiliate,
 * 1 elsewhere; judgements.ts fieldGrade), the fields, the words matched and the title.
 */
import { fixtureDocuments } from './fixtureDocuments.js';
import { fieldGrade } from './judgements.js';

const pattern = process.argv[2];
if (pattern === undefined) throw new Error('usage: candidates.ts <regex>');
const re = new RegExp(pattern, 'giu');
for (const doc of await fixtureDocuments()) {
  const fields: string[] = [];
  const words = new Set<string>();
  for (const [field, values] of Object.entries(doc.text)) {
    for (const v of values) {
      const m = v.match(re);
      if (m === null) continue;
      if (!fields.includes(field)) fields.push(field);
      for (const w of m) words.add(w);
    }
  }
  if (fields.length === 0) continue;
  const grade = Math.max(...fields.map((f) => fieldGrade(f)));
  console.log(`${doc.id}\t${grade}\t${fields.join(',')}\t${[...words].join('|')}\t${doc.text['title']?.[0] ?? ''}`);
}
