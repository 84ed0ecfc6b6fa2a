/**
 * A deliberately plain SQL reference of the item search, for the exactness test, as
 * test/entities/referenceSearch.ts is for persons. It shares nothing with the
 * engine (src/search/engine/: postings, hits, ranks, sort plans, top-k, cursors): it is built
 * from each item's SearchDocument (itemDocumentsFromJson, the mapping under test elsewhere)
 * into its own in-memory SQLite database, one row per item, per word and per facet value,
 * and answers with plain SQL: `IN` subqueries for the query and the filters, `GROUP BY` for
 * facets, `ORDER BY` for every order. Every value is a bound parameter.
 *
 * Shared on purpose: the query parser (src/query) and the folding of src/search/engine/fold.ts
 * (`fold`, `tokens`), as the person reference does.
 *
 * Semantics, from docs/search-engine.md "Semantics" and "Item fields":
 * - a term on no field matches a word of any text field; on a text field, a word of it; on
 *   a facet, the exact value; `id:` the id; a term of several words is a phrase, which
 *   matches consecutive words within one value of a field; `w*` a word starting with w;
 * - `field:*`: a text field with a word, a facet with a value, a number that is set;
 *   ranges on begin_time / end_time compare the numbers (items without one never match);
 * - filters: values of one facet OR-ed, facets AND-ed; facets: values of live documents
 *   with their count among the hits, at least mincount, by count descending then value
 *   (code point order), or by value; at most limit (-1 all);
 * - orders, each ending with the id ascending: id; a sort key with missing values last in
 *   both directions; random: a permutation (checked as such by the test); relevance: the
 *   exact-title tier (the first title's words, in any order, are the query's words), then
 *   the score descending, then the folded title, then the id. Scores: term = idf × Σ field
 *   weight × min(tf, 3), idf = ln(1 + (N − df + 0.5) / (df + 0.5)); phrase = Σ idf of its
 *   words × Σ weight × min(occurrences, 3); prefix and wildcard = the best field weight;
 *   AND and OR add the scores of the parts that match, NOT and non-text leaves add 0.
 *   Scores are compared rounded to 9 decimals (the engine may add in another order).
 */
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import type { QueryNode } from '../../src/query/ast.js';
import { fold, tokens } from '../../src/search/engine/fold.js';
import type { SearchDocument } from '../../src/search/engine/types.js';
import { analyse, elisions, isElided, LANGUAGES, languageOf, queryForms, type Language } from '../../src/search/engine/analysis.js';
import { DEFAULT_LANGUAGES } from '../../src/search/engine/SearchIndex.js';

/** Text fields and their weights, as docs/search-engine.md "Item fields" lists them. */
export const REF_WEIGHTS: Readonly<Record<string, number>> = {
  title: 8,
  subtitle: 4,
  keywords: 3,
  affiliate: 3,
  description: 2,
  place: 2,
  ranking: 1,
  provider: 1,
};
const TEXT_FIELDS = Object.keys(REF_WEIGHTS);
/** The fields analysed in an item's languages (docs/search-engine.md "Language analysis"): all but the persons' names. */
const ANALYSED = TEXT_FIELDS.filter((f) => f !== 'affiliate');
const NUMBERS = ['begin_time', 'end_time'];

export type RefSort =
  { kind: 'relevance' } | { kind: 'id'; descending: boolean } | { kind: 'key'; key: 'title' | 'begin_time'; descending: boolean };

export interface RefFacet {
  field: string;
  limit: number;
  mincount: number;
  sort: 'count' | 'index';
}

export interface RefRequest {
  query: QueryNode<string>;
  filters?: Readonly<Record<string, readonly string[]>>;
  facets?: readonly RefFacet[];
  /** Omitted: no ids (total and facets only). */
  sort?: RefSort;
}

export interface RefResult {
  total: number;
  ids: string[];
  facets: Array<{ field: string; values: Array<{ value: string; count: number }> }>;
}

interface Sql {
  sql: string;
  params: unknown[];
}

const list = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export class ItemReference {
  readonly db: Db;
  private readonly ins;
  private rid = 0;

  constructor() {
    this.db = new Database(':memory:');
    this.db.exec(`
      CREATE TABLE item (
        rid         INTEGER PRIMARY KEY,
        id          TEXT NOT NULL UNIQUE,
        live        INTEGER NOT NULL DEFAULT 1,
        title_key   TEXT,     -- the folded first title (the sort key)
        title_words TEXT,     -- its words sorted (the exact-title tier)
        begin_time  REAL,
        end_time    REAL
      );
      -- kind 0: the folded word at its position; kind 1: an analysed form there (another word, or its form in a language)
      CREATE TABLE aword (item INTEGER NOT NULL, field TEXT NOT NULL, value_no INTEGER NOT NULL, pos INTEGER NOT NULL, word TEXT NOT NULL, kind INTEGER NOT NULL);
      CREATE VIEW word AS SELECT item, field, value_no, pos, word FROM aword WHERE kind = 0;
      CREATE VIEW form AS SELECT item, field, value_no, pos, word AS form FROM aword WHERE kind = 1;
      CREATE TABLE facet (item INTEGER NOT NULL, facet TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (facet, value, item)) WITHOUT ROWID;
      CREATE TABLE weight (field TEXT PRIMARY KEY, w REAL NOT NULL);
      CREATE TABLE hits (rid INTEGER PRIMARY KEY, score REAL NOT NULL DEFAULT 0);
    `);
    const w = this.db.prepare('INSERT INTO weight (field, w) VALUES (?, ?)');
    for (const [field, weight] of Object.entries(REF_WEIGHTS)) w.run(field, weight);
    const item = this.db.prepare('INSERT INTO item (rid, id, title_key, title_words, begin_time, end_time) VALUES (?, ?, ?, ?, ?, ?)');
    const word = this.db.prepare('INSERT INTO aword (item, field, value_no, pos, word, kind) VALUES (?, ?, ?, ?, ?, ?)');
    const facet = this.db.prepare('INSERT OR IGNORE INTO facet (item, facet, value) VALUES (?, ?, ?)');
    this.ins = this.db.transaction((docs: readonly SearchDocument[]) => {
      for (const d of docs) {
        const rid = ++this.rid;
        const first = d.text['title']?.[0];
        item.run(
          rid,
          d.id,
          first === undefined ? null : fold(first),
          first === undefined ? null : tokens(first).sort().join(' '),
          d.numbers['begin_time'] ?? null,
          d.numbers['end_time'] ?? null,
        );
        const langs = languagesOf(d.facets['language_fct']);
        for (const field of TEXT_FIELDS) {
          (d.text[field] ?? []).forEach((value, valueNo) => {
            tokens(value).forEach((t, pos) => word.run(rid, field, valueNo, pos, t, 0));
            if (ANALYSED.includes(field))
              formsOf(value, langs).forEach((forms, pos) => forms.forEach((f) => word.run(rid, field, valueNo, pos, f, 1)));
          });
        }
        for (const [name, values] of Object.entries(d.facets)) for (const v of values) facet.run(rid, name, v);
      }
    });
  }

  add(docs: readonly SearchDocument[]): void {
    this.ins(docs);
  }

  /** Indexes, once everything is added. */
  finish(): void {
    this.db.exec(`
      CREATE INDEX word_word ON aword (word, kind, item, field);
      CREATE INDEX word_item ON aword (item, field);
      CREATE INDEX facet_item ON facet (item, facet);
      CREATE INDEX item_title ON item (title_key);
      ANALYZE;
    `);
  }

  /** An item leaves the search (a block or a delete). */
  remove(id: string): void {
    this.db.prepare('UPDATE item SET live = 0 WHERE id = ?').run(id);
  }

  liveCount(): number {
    return this.db.prepare('SELECT count(*) FROM item WHERE live').pluck().get() as number;
  }

  /** Words by the number of live items having them in `field` (any text field when null), most first. */
  wordFrequencies(field: string | null = null): Array<{ word: string; items: number }> {
    return this.db
      .prepare(
        `SELECT word, count(DISTINCT w.item) AS items FROM word w JOIN item i ON i.rid = w.item AND i.live
         WHERE ${field === null ? '1' : 'field = ?'} GROUP BY word ORDER BY items DESC, word`,
      )
      .all(...(field === null ? [] : [field])) as Array<{ word: string; items: number }>;
  }

  /** Values of a facet by the number of live items, most first. */
  facetValues(facet: string): Array<{ value: string; items: number }> {
    return this.db
      .prepare(
        'SELECT value, count(*) AS items FROM facet f JOIN item i ON i.rid = f.item AND i.live WHERE facet = ? GROUP BY value ORDER BY items DESC, value',
      )
      .all(facet) as Array<{ value: string; items: number }>;
  }

  /** The words of first titles (sorted, as the exact-title tier compares them) by the number of live items having them, most first. */
  titleWordFrequencies(): Array<{ words: string; items: number }> {
    return this.db
      .prepare(
        'SELECT title_words AS words, count(*) AS items FROM item WHERE live AND title_words IS NOT NULL GROUP BY title_words ORDER BY items DESC, title_words',
      )
      .all() as Array<{ words: string; items: number }>;
  }

  /** Distinct begin_time values, ascending. */
  beginTimes(): number[] {
    return this.db
      .prepare('SELECT DISTINCT begin_time FROM item WHERE live AND begin_time IS NOT NULL ORDER BY 1')
      .pluck()
      .all() as number[];
  }

  /** Ids of live items, in id order. */
  liveIds(): string[] {
    return this.db.prepare('SELECT id FROM item WHERE live ORDER BY id').pluck().all() as string[];
  }

  search(req: RefRequest): RefResult {
    const where = this.predicate(req.query);
    const filters: Sql[] = Object.entries(req.filters ?? {}).map(([f, values]) => ({
      sql: `i.rid IN (SELECT item FROM facet WHERE facet = ? AND value IN (${list(values.length)}))`,
      params: [f, ...values],
    }));
    const all = [{ sql: 'i.live', params: [] }, where, ...filters];
    const score = this.score(req.query);
    this.db.exec('DELETE FROM hits');
    this.db
      .prepare(`INSERT INTO hits (rid, score) SELECT i.rid, ${score.sql} FROM item i WHERE ${all.map((s) => s.sql).join(' AND ')}`)
      .run(...score.params, ...all.flatMap((s) => s.params));
    const total = this.db.prepare('SELECT count(*) FROM hits').pluck().get() as number;

    const facets = (req.facets ?? []).map((fr) => ({
      field: fr.field,
      values: this.db
        .prepare(
          `SELECT f.value AS value, count(h.rid) AS count
           FROM facet f JOIN item i ON i.rid = f.item AND i.live LEFT JOIN hits h ON h.rid = f.item
           WHERE f.facet = ?
           GROUP BY f.value HAVING count(h.rid) >= ?
           ORDER BY ${fr.sort === 'count' ? 'count(h.rid) DESC, ' : ''}f.value
           LIMIT ?`,
        )
        .all(fr.field, fr.mincount, fr.limit) as Array<{ value: string; count: number }>,
    }));

    return { total, ids: req.sort === undefined ? [] : this.ordered(req.sort, req.query), facets };
  }

  /** The hits of the last search in an order. */
  ordered(sort: RefSort, query: QueryNode<string>): string[] {
    const order = this.orderBy(sort, query);
    return this.db
      .prepare(`SELECT i.id FROM hits h JOIN item i ON i.rid = h.rid ORDER BY ${order.sql}`)
      .pluck()
      .all(...order.params) as string[];
  }

  /** Sort values of an item: [folded title, begin_time] (null when missing). */
  keysOf(id: string): { title: string | null; begin: number | null } {
    return this.db.prepare('SELECT title_key AS title, begin_time AS begin FROM item WHERE id = ?').get(id) as {
      title: string | null;
      begin: number | null;
    };
  }

  private orderBy(sort: RefSort, query: QueryNode<string>): Sql {
    switch (sort.kind) {
      case 'id':
        return { sql: `i.id${sort.descending ? ' DESC' : ''}`, params: [] };
      case 'key': {
        const col = sort.key === 'title' ? 'i.title_key' : 'i.begin_time';
        return { sql: `${col} IS NULL, ${col}${sort.descending ? ' DESC' : ''}, i.id`, params: [] };
      }
      case 'relevance': {
        const words = exactWords(query);
        const tier = words.length === 0 ? '' : 'CASE WHEN i.title_words = ? THEN 0 ELSE 1 END, ';
        return {
          sql: `${tier}round(h.score, 9) DESC, i.title_key IS NULL, i.title_key, i.id`,
          params: words.length === 0 ? [] : [words.sort().join(' ')],
        };
      }
    }
  }

  /** A WHERE condition on `item i` for a query node. */
  private predicate(node: QueryNode<string>): Sql {
    switch (node.kind) {
      case 'all':
        return { sql: '1', params: [] };
      case 'and':
      case 'or': {
        const parts = node.children.map((c) => this.predicate(c));
        return { sql: `(${parts.map((s) => s.sql).join(node.kind === 'and' ? ' AND ' : ' OR ')})`, params: parts.flatMap((s) => s.params) };
      }
      case 'not': {
        const inner = this.predicate(node.child);
        return { sql: `NOT (${inner.sql})`, params: inner.params };
      }
      case 'exists':
        if (TEXT_FIELDS.includes(node.field)) return { sql: 'i.rid IN (SELECT item FROM word WHERE field = ?)', params: [node.field] };
        if (NUMBERS.includes(node.field)) return { sql: `i.${node.field} IS NOT NULL`, params: [] };
        return { sql: 'i.rid IN (SELECT item FROM facet WHERE facet = ?)', params: [node.field] };
      case 'range': {
        if (!NUMBERS.includes(node.field)) throw new Error(`reference: no range on ${node.field}`);
        const conds = [`i.${node.field} IS NOT NULL`];
        const params: unknown[] = [];
        if (node.lower !== null) {
          conds.push(`i.${node.field} >${node.includeLower ? '=' : ''} ?`);
          params.push(Number(node.lower));
        }
        if (node.upper !== null) {
          conds.push(`i.${node.field} <${node.includeUpper ? '=' : ''} ?`);
          params.push(Number(node.upper));
        }
        return { sql: `(${conds.join(' AND ')})`, params };
      }
      default: {
        const text = node.kind === 'wildcard' ? node.pattern : node.text;
        if (node.field === 'id') return { sql: 'i.id = ?', params: [text] };
        if (node.field !== null && !TEXT_FIELDS.includes(node.field)) {
          if (NUMBERS.includes(node.field)) return { sql: `i.${node.field} = ?`, params: [Number(text)] };
          // a facet: the exact value, values starting with a prefix, or a GLOB (case-sensitive)
          const test = node.kind === 'prefix' ? 'substr(value, 1, length(?)) = ?' : node.kind === 'wildcard' ? 'value GLOB ?' : 'value = ?';
          const sql = `i.rid IN (SELECT item FROM facet WHERE facet = ? AND ${test})`;
          return { sql, params: node.kind === 'prefix' ? [node.field, text, text] : [node.field, text] };
        }
        const fields = node.field === null ? TEXT_FIELDS : [node.field];
        if (node.kind === 'wildcard') {
          return {
            sql: `i.rid IN (SELECT item FROM word WHERE word GLOB ? AND field IN (${list(fields.length)}))`,
            params: [fold(text), ...fields],
          };
        }
        const words = tokens(text);
        if (words.length === 0) {
          if (node.kind !== 'prefix') return { sql: '0', params: [] };
          return { sql: `i.rid IN (SELECT item FROM word WHERE field IN (${list(fields.length)}))`, params: fields };
        }
        if (node.kind === 'prefix') {
          const occ = this.occurrences(fields, words, true);
          return { sql: `i.rid IN (${occ.sql})`, params: occ.params };
        }
        return orSql(this.textLeaf(text, words, fields).map((l) => l.match));
      }
    }
  }

  /** Rows (item, field) per occurrence of `words` one after the other within one value; the last word a prefix if asked. */
  private occurrences(fields: readonly string[], words: readonly string[], lastIsPrefix: boolean, column = 'w0.item'): Sql {
    const from = words.map((_, k) => `word w${k}`).join(', ');
    const conds: string[] = [`w0.field IN (${list(fields.length)})`];
    const params: unknown[] = [...fields];
    words.forEach((word, k) => {
      if (k > 0)
        conds.push(`w${k}.item = w0.item AND w${k}.field = w0.field AND w${k}.value_no = w0.value_no AND w${k}.pos = w0.pos + ${k}`);
      if (lastIsPrefix && k === words.length - 1) conds.push(`instr(w${k}.word, ?) = 1`);
      else conds.push(`w${k}.word = ?`);
      params.push(word);
    });
    return { sql: `SELECT ${column} AS x FROM ${from} WHERE ${conds.join(' AND ')}`, params };
  }

  /** The score of a node for item `i` (0 where it does not match). */
  private score(node: QueryNode<string>): Sql {
    switch (node.kind) {
      case 'and': {
        const parts = node.children.filter((c) => c.kind !== 'not').map((c) => this.score(c));
        return parts.length === 0
          ? { sql: '0', params: [] }
          : { sql: `(${parts.map((p) => p.sql).join(' + ')})`, params: parts.flatMap((p) => p.params) };
      }
      case 'or': {
        const parts = node.children.map((c) => {
          const s = this.score(c);
          const m = this.predicate(c);
          return { sql: `(CASE WHEN ${m.sql} THEN ${s.sql} ELSE 0 END)`, params: [...m.params, ...s.params] };
        });
        return { sql: `(${parts.map((p) => p.sql).join(' + ')})`, params: parts.flatMap((p) => p.params) };
      }
      case 'term':
      case 'phrase':
      case 'prefix':
      case 'wildcard': {
        if (node.field !== null && !TEXT_FIELDS.includes(node.field)) return { sql: '0', params: [] };
        const fields = node.field === null ? TEXT_FIELDS : [node.field];
        if (node.kind === 'wildcard' || node.kind === 'prefix') {
          const words = node.kind === 'prefix' ? tokens(node.text) : [];
          if (node.kind === 'prefix' && words.length !== 1) throw new Error('reference: a prefix of one word only');
          const test = node.kind === 'prefix' ? 'instr(w.word, ?) = 1' : 'w.word GLOB ?';
          return {
            sql: `coalesce((SELECT max(g.w) FROM word w JOIN weight g ON g.field = w.field WHERE w.item = i.rid AND ${test} AND w.field IN (${list(fields.length)})), 0)`,
            params: [node.kind === 'prefix' ? words[0] : fold(node.pattern), ...fields],
          };
        }
        const words = tokens(node.text);
        if (words.length === 0) return { sql: '0', params: [] };
        const parts = this.textLeaf(node.text, words, fields).map((l) => l.score);
        return { sql: `(${parts.map((p) => p.sql).join(' + ')})`, params: parts.flatMap((p) => p.params) };
      }
      default:
        return { sql: '0', params: [] };
    }
  }

  /**
   * The parts of a word or phrase on text fields, each with its condition and score, whose
   * scores add (docs/search-engine.md "Language analysis"): a word exactly, then, in the
   * analysed fields, ½ × each of its query forms as a word (but itself) and as a form, then
   * the compound it splits into when no live item has it; a phrase exactly, then ½ × the
   * phrase of its words' forms (elided articles and possessives left out).
   */
  private textLeaf(text: string, words: readonly string[], fields: readonly string[]): Array<{ match: Sql; score: Sql }> {
    const am = fields.filter((f) => ANALYSED.includes(f));
    const out: Array<{ match: Sql; score: Sql }> = [];
    if (words.length === 1) {
      const w = words[0]!;
      out.push(this.wordPart(w, fields, 'word', 1));
      if (am.length === 0) return out;
      out.push(...this.analysedWord(w, am, false));
      if (this.df('word', [w]) === 0) {
        const split = this.compoundSplit(w);
        if (split !== undefined) {
          const parts = this.textLeaf(split.join(' '), split, fields);
          out.push({ match: orSql(parts.map((p) => p.match)), score: sumSql(parts.map((p) => p.score)) });
        }
      }
      return out;
    }
    out.push(
      this.phrasePart(
        words.map((w) => [w]),
        fields,
        'word',
        1,
      ),
    );
    if (am.length === 0) return out;
    const el = elisions(text);
    const kept = el !== undefined && el.length === words.length ? words.filter((_, k) => el[k] === 0) : words;
    if (kept.length === 0) return out;
    if (kept.length === 1) return [...out, ...this.analysedWord(kept[0]!, am, true)];
    out.push(this.phrasePart(kept.map(queryForms), am, 'aword', 0.5));
    return out;
  }

  private analysedWord(w: string, am: readonly string[], self: boolean): Array<{ match: Sql; score: Sql }> {
    const out: Array<{ match: Sql; score: Sql }> = [];
    for (const f of queryForms(w)) {
      if (f !== w || self) out.push(this.wordPart(f, am, 'word', 0.5));
      out.push(this.wordPart(f, am, 'form', 0.5));
    }
    return out;
  }

  /** A word (or a form) in `fields`: the items having it, and factor × idf × Σ weight × min(tf, 3). */
  private wordPart(w: string, fields: readonly string[], table: 'word' | 'form', factor: number): { match: Sql; score: Sql } {
    const col = table === 'word' ? 'word' : 'form';
    const cond = `${col} = ? AND field IN (${list(fields.length)})`;
    return {
      match: { sql: `i.rid IN (SELECT item FROM ${table} WHERE ${cond})`, params: [w, ...fields] },
      score: {
        sql: `(coalesce((SELECT sum(g.w * min(o.n, 3)) FROM (SELECT field, count(*) AS n FROM ${table} WHERE item = i.rid AND ${cond} GROUP BY field) o JOIN weight g ON g.field = o.field), 0) * ?)`,
        params: [w, ...fields, factor * this.idfOf(this.df(table, [w]))],
      },
    };
  }

  /**
   * Consecutive positions within one value of a field of `fields`, the k-th holding one of
   * `forms[k]` (in `table`: aword holds words and forms); score factor × Σ idf × Σ weight ×
   * min(occurrences, 3), an occurrence counted once however many of its forms it has.
   */
  private phrasePart(
    forms: readonly (readonly string[])[],
    fields: readonly string[],
    table: 'word' | 'aword',
    factor: number,
  ): { match: Sql; score: Sql } {
    const from = forms.map((_, k) => `${table} w${k}`).join(', ');
    const conds: string[] = [`w0.field IN (${list(fields.length)})`];
    const params: unknown[] = [...fields];
    forms.forEach((f, k) => {
      if (k > 0)
        conds.push(`w${k}.item = w0.item AND w${k}.field = w0.field AND w${k}.value_no = w0.value_no AND w${k}.pos = w0.pos + ${k}`);
      conds.push(`w${k}.word IN (${list(f.length)})`);
      params.push(...f);
    });
    const where = conds.join(' AND ');
    const idfSum = forms.reduce((s, f) => s + this.idfOf(this.df(table, f)), 0);
    return {
      match: { sql: `i.rid IN (SELECT w0.item FROM ${from} WHERE ${where})`, params },
      score: {
        sql: `(coalesce((SELECT sum(g.w * min(o.n, 3)) FROM (SELECT field, count(*) AS n FROM (SELECT DISTINCT w0.field AS field, w0.value_no, w0.pos FROM ${from} WHERE ${where} AND w0.item = i.rid) GROUP BY field) o JOIN weight g ON g.field = o.field), 0) * ?)`,
        params: [...params, factor * idfSum],
      },
    };
  }

  private compoundSplit(w: string): [string, string] | undefined {
    let best: [string, string] | undefined;
    let bestDf = 0;
    for (let i = 1; i <= w.length - 3; i++) {
      if (i < 3 && !isElided(w.slice(0, i))) continue;
      const df = Math.min(this.df('word', [w.slice(0, i)]), this.df('word', [w.slice(i)]));
      if (df > 0 && df >= bestDf) {
        best = [w.slice(0, i), w.slice(i)];
        bestDf = df;
      }
    }
    return best;
  }

  /** Live items having one of `words` in any text field of `table` (word: the folded words; form: the analysed forms; aword: both). */
  private df(table: 'word' | 'form' | 'aword', words: readonly string[]): number {
    const col = table === 'form' ? 'form' : 'word';
    return this.db
      .prepare(
        `SELECT count(DISTINCT w.item) FROM ${table} w JOIN item i ON i.rid = w.item AND i.live WHERE w.${col} IN (${list(words.length)})`,
      )
      .pluck()
      .get(...words) as number;
  }

  private idfOf(df: number): number {
    const n = this.liveCount();
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }
}

function orSql(parts: readonly Sql[]): Sql {
  return { sql: `(${parts.map((p) => p.sql).join(' OR ')})`, params: parts.flatMap((p) => p.params) };
}

function sumSql(parts: readonly Sql[]): Sql {
  return { sql: `(${parts.map((p) => p.sql).join(' + ')})`, params: parts.flatMap((p) => p.params) };
}

/** An item's languages: those of its language_fct that are analysed, else the defaults, in the order of LANGUAGES. */
function languagesOf(values: readonly string[] | undefined): Language[] {
  let langs = (values ?? []).map(languageOf).filter((l): l is Language => l !== undefined);
  if (langs.length === 0) langs = DEFAULT_LANGUAGES.map(languageOf).filter((l): l is Language => l !== undefined);
  return LANGUAGES.filter((l) => langs.includes(l));
}

/**
 * Per word of a value of an analysed field, its analysed forms that are not the word: its
 * form in each language; for an elided article or a possessive `s`, the word it belongs to
 * and that word's forms.
 */
function formsOf(value: string, langs: readonly Language[]): string[][] {
  const toks = tokens(value);
  const el = elisions(value);
  return toks.map((_, k) => {
    let h = el !== undefined && el.length === toks.length ? k + el[k]! : k;
    if (h < 0 || h >= toks.length) h = k;
    const t = toks[h]!;
    const forms = h !== k ? [t] : [];
    for (const l of langs) {
      const a = analyse(t, l);
      if (a !== t && !forms.includes(a)) forms.push(a);
    }
    return forms;
  });
}

/** The words of the positive terms and phrases on no field or on `title` (the exact-title tier). */
function exactWords(node: QueryNode<string>): string[] {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.flatMap(exactWords);
    case 'term':
    case 'phrase':
      return node.field === null || node.field === 'title' ? tokens(node.text) : [];
    default:
      return [];
  }
}
