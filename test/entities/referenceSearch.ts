/**
 * A deliberately plain reference evaluation of the entity search, for the
 * exactness test, which compares counts and facet values against a
 * straightforward SQL evaluation. It shares nothing with the production
 * search (src/store/sqlite/personSearch.ts, personIndex.ts, src/search/sets.ts,
 * topK.ts, personFields.ts): it is built from the Person objects themselves
 * into its own in-memory SQLite database, one row per person, per value and
 * per word, and answers every query with one plain SQL statement (subqueries
 * with `IN`, `GROUP BY` for facets, `ORDER BY` for sorts, `count(*)` for
 * totals). Every value is a bound parameter.
 *
 * Shared with production on purpose: the query parser (src/query, it has its
 * own tests and only builds the tree) and the pure folding of
 * src/search/engine/fold.ts (`fold`, `tokens`: "matching ignores case and
 * diacritics ... words are runs of letters and digits", docs/api.md).
 *
 * Semantics, from docs/api.md "GET /entities" and docs/decisions.md "Entity search":
 * - a term matches a word of the field(s); a plain term any text field (all
 *   but id, type, count); a term of several words is a phrase;
 * - a phrase matches consecutive words within ONE value of a field (Solr's
 *   multi-valued fields: a phrase does not run from one value into the next);
 * - `w*` matches words starting with w; other wildcards (`*`, `?`, within one
 *   word) by GLOB over the words;
 * - ranges on dateOfBirth/dateOfDeath compare the first 3–4 digit number of
 *   the text (persons without one never match), on count numbers, on
 *   preferredName the folded names;
 * - facets: values by descending count, ties by value; listed when the count
 *   exceeds minDocs; at most facet.limit; filters: values of one facet OR-ed,
 *   facets AND-ed;
 * - ALPHA_ASC / ALPHA_DESC by the folded preferred name; relevance: exact
 *   preferred name (the query's words in any order) first, then all the
 *   query's words in the preferred name, then the rest, within each by count
 *   descending, then name; COUNT_DESC: count descending, then name. Where the
 *   documented keys tie, by id ascending (not documented; see the test).
 */
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import type { Person } from '../../src/domain/person.js';
import type { QueryNode } from '../../src/query/ast.js';
import { fold, tokens } from '../../src/search/engine/fold.js';

/** The text fields a plain term searches (docs/api.md: all fields but id, type, count). */
export const REF_TEXT_FIELDS = [
  'preferredName',
  'variantName',
  'dateOfBirth',
  'dateOfDeath',
  'placeOfBirth',
  'placeOfDeath',
  'professionOrOccupation',
  'gender',
] as const;
type RefTextField = (typeof REF_TEXT_FIELDS)[number];

export const REF_FACETS = ['person_name_fct', 'person_place_fct', 'person_gender_fct', 'person_occupation_fct'] as const;
export type RefFacet = (typeof REF_FACETS)[number];

export type RefSort = 'relevance' | 'alpha_asc' | 'alpha_desc' | 'count_desc';

export interface RefRequest {
  query: QueryNode;
  filters?: ReadonlyArray<readonly [RefFacet, readonly string[]]>;
  facets?: readonly RefFacet[];
  facetLimit?: number;
  minDocs?: number;
  sort?: RefSort;
  /** How many ids of the ordered hits to return (all when omitted). */
  limit?: number;
}

export interface RefResult {
  total: number;
  /** Ids in the requested order, at most `limit`. */
  ids: string[];
  facets: Array<{ field: RefFacet; values: Array<{ value: string; count: number }> }>;
}

function valuesOf(p: Person, field: RefTextField): string[] {
  const v = p[field];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** The year of a free-text date as documented: the first number of exactly 3 or 4 digits. */
export function refYear(text: string | undefined): number | null {
  if (text === undefined) return null;
  const m = /(?:^|[^0-9])([0-9]{3,4})(?![0-9])/.exec(text);
  return m ? Number(m[1]) : null;
}

/** The preferred name's words in any order: sorted folded words. */
function wordsKey(words: readonly string[]): string {
  return [...words].sort().join(' ');
}

/** Text, with SQL and its parameters in the same order. */
interface Sql {
  sql: string;
  params: unknown[];
}

const list = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export class ReferenceSearch {
  readonly db: Db;
  private readonly insPerson;
  private readonly insValue;
  private readonly insWord;
  private readonly insFacet;
  private readonly insRef;
  private rid = 0;

  constructor() {
    this.db = new Database(':memory:');
    this.db.exec(`
      CREATE TABLE person (
        rid        INTEGER PRIMARY KEY,
        id         TEXT NOT NULL UNIQUE,
        name_fold  TEXT NOT NULL,
        name_words TEXT NOT NULL,
        birth_year INTEGER,
        death_year INTEGER
      );
      -- every value of every text field (arrays: one row per element)
      CREATE TABLE person_value (person INTEGER NOT NULL, field TEXT NOT NULL, value_no INTEGER NOT NULL, value TEXT NOT NULL);
      -- every word of every value, with its position in that value
      CREATE TABLE person_word (person INTEGER NOT NULL, field TEXT NOT NULL, value_no INTEGER NOT NULL, pos INTEGER NOT NULL, word TEXT NOT NULL);
      CREATE TABLE person_facet (person INTEGER NOT NULL, facet TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (facet, value, person));
      -- item -> person references (count = number of distinct items naming the person)
      CREATE TABLE item_ref (item TEXT NOT NULL, uri TEXT NOT NULL, PRIMARY KEY (item, uri));
      CREATE TABLE hits (rid INTEGER PRIMARY KEY);
    `);
    this.insPerson = this.db.prepare(
      'INSERT INTO person (rid, id, name_fold, name_words, birth_year, death_year) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.insValue = this.db.prepare('INSERT INTO person_value (person, field, value_no, value) VALUES (?, ?, ?, ?)');
    this.insWord = this.db.prepare('INSERT INTO person_word (person, field, value_no, pos, word) VALUES (?, ?, ?, ?, ?)');
    this.insFacet = this.db.prepare('INSERT OR IGNORE INTO person_facet (person, facet, value) VALUES (?, ?, ?)');
    this.insRef = this.db.prepare('INSERT OR IGNORE INTO item_ref (item, uri) VALUES (?, ?)');
  }

  addPersons(persons: readonly Person[]): void {
    this.db.transaction(() => {
      for (const p of persons) {
        const rid = ++this.rid;
        this.insPerson.run(
          rid,
          p.id,
          fold(p.preferredName),
          wordsKey(tokens(p.preferredName)),
          refYear(p.dateOfBirth),
          refYear(p.dateOfDeath),
        );
        for (const field of REF_TEXT_FIELDS) {
          valuesOf(p, field).forEach((value, valueNo) => {
            this.insValue.run(rid, field, valueNo, value);
            tokens(value).forEach((word, pos) => this.insWord.run(rid, field, valueNo, pos, word));
          });
        }
        this.insFacet.run(rid, 'person_name_fct', p.preferredName);
        for (const v of [...(p.placeOfBirth ?? []), ...(p.placeOfDeath ?? [])]) this.insFacet.run(rid, 'person_place_fct', v);
        for (const v of p.gender ?? []) this.insFacet.run(rid, 'person_gender_fct', v);
        for (const v of p.professionOrOccupation ?? []) this.insFacet.run(rid, 'person_occupation_fct', v);
      }
    })();
  }

  addItemRefs(item: string, uris: readonly string[]): void {
    for (const uri of uris) this.insRef.run(item, uri);
  }

  /** Indexes and the per-person count, once everything is added. */
  finish(): void {
    this.db.exec(`
      CREATE INDEX person_word_word ON person_word (word, field, person);
      CREATE INDEX person_value_field ON person_value (field, person);
      CREATE INDEX person_facet_person ON person_facet (person, facet);
      CREATE INDEX person_name_words ON person (name_words);
      CREATE INDEX item_ref_uri ON item_ref (uri);
      ALTER TABLE person ADD COLUMN item_count INTEGER NOT NULL DEFAULT 0;
      UPDATE person SET item_count = (SELECT count(*) FROM item_ref r WHERE r.uri = person.id);
      ANALYZE;
    `);
  }

  /** Words by the number of persons having them (most first, ties by word). */
  wordFrequencies(): Array<{ word: string; persons: number }> {
    return this.db
      .prepare('SELECT word, count(DISTINCT person) AS persons FROM person_word GROUP BY word ORDER BY persons DESC, word')
      .all() as Array<{ word: string; persons: number }>;
  }

  /** Persons whose `field` has the word. */
  fieldWordFrequencies(field: RefTextField): Array<{ word: string; persons: number }> {
    return this.db
      .prepare('SELECT word, count(DISTINCT person) AS persons FROM person_word WHERE field = ? GROUP BY word ORDER BY persons DESC, word')
      .all(field) as Array<{ word: string; persons: number }>;
  }

  countOf(id: string): number | undefined {
    return (this.db.prepare('SELECT item_count FROM person WHERE id = ?').pluck().get(id) as number | undefined) ?? undefined;
  }

  search(req: RefRequest): RefResult {
    const where = this.predicate(req.query);
    const filters: Sql[] = (req.filters ?? []).map(([facet, values]) => ({
      sql: `p.rid IN (SELECT person FROM person_facet WHERE facet = ? AND value IN (${list(values.length)}))`,
      params: [facet, ...values],
    }));
    const all = [where, ...filters];
    this.db.exec('DELETE FROM hits');
    this.db
      .prepare(`INSERT INTO hits (rid) SELECT p.rid FROM person p WHERE ${all.map((s) => s.sql).join(' AND ')}`)
      .run(...all.flatMap((s) => s.params));
    const total = this.db.prepare('SELECT count(*) FROM hits').pluck().get() as number;

    const facets = (req.facets ?? []).map((field) => ({
      field,
      values: this.db
        .prepare(
          `SELECT f.value AS value, count(*) AS count
           FROM hits h JOIN person_facet f ON f.person = h.rid AND f.facet = ?
           GROUP BY f.value HAVING count(*) > ?
           ORDER BY count(*) DESC, f.value
           LIMIT ?`,
        )
        .all(field, req.minDocs ?? 0, req.facetLimit ?? 100) as Array<{ value: string; count: number }>,
    }));

    const order = this.orderBy(req.sort ?? 'relevance', req.query);
    const ids = this.db
      .prepare(`SELECT p.id FROM hits h JOIN person p ON p.rid = h.rid ORDER BY ${order.sql} LIMIT ?`)
      .pluck()
      .all(...order.params, req.limit ?? -1) as string[];
    return { total, ids, facets };
  }

  private orderBy(sort: RefSort, query: QueryNode): Sql {
    switch (sort) {
      case 'alpha_asc':
        return { sql: 'p.name_fold, p.id', params: [] };
      case 'alpha_desc':
        return { sql: 'p.name_fold DESC, p.id', params: [] };
      case 'count_desc':
        return { sql: 'p.item_count DESC, p.name_fold, p.id', params: [] };
      case 'relevance': {
        const terms = nameTerms(query);
        if (terms.length === 0) return { sql: 'p.item_count DESC, p.name_fold, p.id', params: [] };
        const inName = terms.map((t) => this.words(['preferredName'], t, false));
        return {
          sql: `CASE WHEN p.name_words = ? THEN 0 WHEN ${inName.map((s) => s.sql).join(' AND ')} THEN 1 ELSE 2 END,
                p.item_count DESC, p.name_fold, p.id`,
          params: [wordsKey(terms.flat()), ...inName.flatMap((s) => s.params)],
        };
      }
    }
  }

  /** A WHERE condition on `person p` for a query node. */
  private predicate(node: QueryNode): Sql {
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
        if (node.field === 'id' || node.field === 'type' || node.field === 'count') return { sql: '1', params: [] };
        return { sql: 'p.rid IN (SELECT person FROM person_value WHERE field = ?)', params: [node.field] };
      case 'range':
        return this.range(node);
      case 'term':
      case 'phrase':
      case 'prefix':
      case 'wildcard': {
        const text = node.kind === 'wildcard' ? node.pattern : node.text;
        if (node.field === 'id') {
          if (node.kind !== 'term' && node.kind !== 'phrase') throw new Error('reference: only whole ids');
          // docs/api.md: the http:// and https:// forms of a GND URI are the same.
          return { sql: 'p.id = ?', params: [text.trim().replace(/^https:\/\/d-nb\.info\//, 'http://d-nb.info/')] };
        }
        if (node.field === 'type') return { sql: node.kind !== 'wildcard' && fold(text) === 'person' ? '1' : '0', params: [] };
        if (node.field === 'count') return { sql: 'p.item_count = ?', params: [Number(text)] };
        const fields: readonly RefTextField[] = node.field === null ? REF_TEXT_FIELDS : [node.field];
        if (node.kind === 'wildcard') {
          return {
            sql: `p.rid IN (SELECT person FROM person_word WHERE word GLOB ? AND field IN (${list(fields.length)}))`,
            params: [fold(node.pattern), ...fields],
          };
        }
        const words = tokens(text);
        if (words.length === 0) {
          if (node.kind !== 'prefix') return { sql: '0', params: [] };
          return { sql: `p.rid IN (SELECT person FROM person_value WHERE field IN (${list(fields.length)}))`, params: [...fields] };
        }
        return this.words(fields, words, node.kind === 'prefix');
      }
    }
  }

  /** Persons with `words` one after the other within one value of one of `fields`; the last word a prefix if asked. */
  private words(fields: readonly RefTextField[], words: readonly string[], lastIsPrefix: boolean): Sql {
    const from = words.map((_, k) => `person_word w${k}`).join(', ');
    const conds: string[] = [`w0.field IN (${list(fields.length)})`];
    const params: unknown[] = [...fields];
    words.forEach((word, k) => {
      if (k > 0)
        conds.push(`w${k}.person = w0.person AND w${k}.field = w0.field AND w${k}.value_no = w0.value_no AND w${k}.pos = w0.pos + ${k}`);
      if (lastIsPrefix && k === words.length - 1) conds.push(`instr(w${k}.word, ?) = 1`);
      else conds.push(`w${k}.word = ?`);
      params.push(word);
    });
    return { sql: `p.rid IN (SELECT w0.person FROM ${from} WHERE ${conds.join(' AND ')})`, params };
  }

  private range(node: Extract<QueryNode, { kind: 'range' }>): Sql {
    const conds: string[] = [];
    const params: unknown[] = [];
    const bound = (column: string, value: string | null, op: '>' | '<', inclusive: boolean, convert: (s: string) => unknown) => {
      if (value === null) return;
      conds.push(`${column} ${op}${inclusive ? '=' : ''} ?`);
      params.push(convert(value));
    };
    let column: string;
    let convert: (s: string) => unknown;
    switch (node.field) {
      case 'dateOfBirth':
      case 'dateOfDeath':
        column = node.field === 'dateOfBirth' ? 'p.birth_year' : 'p.death_year';
        conds.push(`${column} IS NOT NULL`);
        convert = (s) => refYear(s) ?? Number(s);
        break;
      case 'count':
        column = 'p.item_count';
        convert = Number;
        break;
      case 'preferredName':
        column = 'p.name_fold';
        convert = fold;
        break;
      default:
        throw new Error(`reference: no range on ${node.field}`);
    }
    bound(column, node.lower, '>', node.includeLower, convert);
    bound(column, node.upper, '<', node.includeUpper, convert);
    return { sql: conds.length === 0 ? '1' : `(${conds.join(' AND ')})`, params };
  }
}

/**
 * The query's words for relevance (docs/api.md "Relevance"): the words of
 * plain and preferredName terms and phrases, not under NOT; one entry per
 * term or phrase (a phrase's words must stand together in the name).
 */
function nameTerms(node: QueryNode): string[][] {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.flatMap(nameTerms);
    case 'term':
    case 'phrase': {
      const words = tokens(node.text);
      return (node.field === null || node.field === 'preferredName') && words.length > 0 ? [words] : [];
    }
    default:
      return [];
  }
}
