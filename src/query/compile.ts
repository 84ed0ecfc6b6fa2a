/**
 * Compiles the tree of the `lucene` package into a QueryNode.
 *
 * Boolean semantics follow Lucene's classic QueryParser with default operator AND
 * (QueryParserBase.addClause): each clause of a sequence gets an occurrence
 *   - introduced by NOT (or prefix -/!)       -> MUST_NOT
 *   - introduced by OR                        -> SHOULD, and the clause before it becomes
 *                                                SHOULD too (unless it is MUST_NOT)
 *   - introduced by AND                       -> MUST, and the clause before it becomes
 *                                                MUST too (unless it is MUST_NOT)
 *   - otherwise (implicit operator)           -> MUST, or SHOULD with default operator OR
 *                                                (Solr's q.op=OR: `a b` = `a OR b`)
 * and the sequence matches like a Lucene BooleanQuery: all MUST clauses, none of the
 * MUST_NOT ones, and at least one SHOULD clause when there is no MUST clause. When MUST
 * clauses are present, SHOULD clauses only add to the score in Lucene, so they do not
 * restrict matching and are left out of the tree: `a OR b c` matches exactly like `c`.
 * A sequence with only MUST_NOT clauses matches everything but them (as Solr does):
 * `-a` = and(all, not(a)).
 */
import { ALL, and, or } from './ast.js';
import type { QueryNode, TermSpan } from './ast.js';
import { QuerySyntaxError, quote } from './errors.js';
import { isRange, isTerm } from './lucene.js';
import type { Loc, LuceneAny, LuceneNode, LuceneRange, LuceneTerm } from './lucene.js';

type Occur = 'MUST' | 'SHOULD' | 'MUST_NOT';
/** What a term needs to hold a word, or to be a wildcard. */
const WORDY = /[\p{L}\p{N}*?]/u;
/** The field in force: a query field, '*' (only valid in *:*), or null for any field. */
type FieldCtx = string | null;

interface Item {
  conj: 'AND' | 'OR' | null;
  not: boolean;
  clause: LuceneAny;
}

export class Compiler {
  /**
   * `origin` maps offsets in the text lucene parsed back to the user's query; `fields` are
   * the field names a query may use (case-sensitive).
   */
  constructor(
    private readonly origin: number[],
    private readonly userText: string,
    private readonly fields: readonly string[],
    private readonly defaultOperator: 'AND' | 'OR' = 'AND',
    /** When given, every term node made is recorded here with where it stands in the user's query. */
    private readonly spans?: TermSpan[],
    /** Boosts and proximities by where their term or phrase begins in the prepared text (prepare.ts). */
    private readonly modifiers: ReadonlyMap<number, { boost?: number; slop?: number }> = new Map(),
  ) {}

  /** The boost of a term or phrase, as an optional field of its node. */
  private boost(c: LuceneTerm): { boost?: number } {
    const b = this.modifiers.get(c.termLocation.start.offset)?.boost;
    return b === undefined ? {} : { boost: b };
  }

  compile(root: LuceneNode): QueryNode<string> {
    if (root.left === undefined) throw new QuerySyntaxError(0, 'a term');
    return this.sequence(root, null);
  }

  private pos(loc: Loc | null | undefined): number {
    return loc ? (this.origin[loc.start.offset] ?? this.userText.length) : 0;
  }

  /** A chain {left, operator, right} (top level or a parenthesised group). */
  private sequence(node: LuceneNode, field: FieldCtx): QueryNode<string> {
    const occurs: Occur[] = [];
    const nodes: QueryNode<string>[] = [];
    for (const item of flatten(node)) {
      const k = occurs.length;
      if (k > 0 && item.conj !== null && occurs[k - 1] !== 'MUST_NOT') {
        occurs[k - 1] = item.conj === 'AND' ? 'MUST' : 'SHOULD';
      }
      // lucene can also glue '-'/'!' to a term; the pre-pass turns them into NOT, but a
      // glued one would mean the same
      const c = item.clause;
      const not = item.not || (isTerm(c) && (c.prefix === '-' || c.prefix === '!'));
      const conj = item.conj ?? this.defaultOperator;
      occurs.push(not ? 'MUST_NOT' : conj === 'OR' ? 'SHOULD' : 'MUST');
      nodes.push(this.clause(item.clause, field));
    }
    // A term without a letter or a digit (`&` in `Breitkopf & Härtel`) holds no word to
    // match: left out beside clauses that have one, as Lucene's analysers leave it out
    // (docs/api.md "Query syntax"). Alone, it stays and matches nothing.
    const wordless = nodes.map((n) => n.kind === 'term' && !WORDY.test(n.text));
    if (wordless.some((w) => !w)) {
      for (let k = nodes.length - 1; k >= 0; k--) {
        if (!wordless[k]) continue;
        nodes.splice(k, 1);
        occurs.splice(k, 1);
      }
    }
    const pick = (o: Occur): QueryNode<string>[] => nodes.filter((_, k) => occurs[k] === o);
    const must = pick('MUST');
    const should = pick('SHOULD');
    const positive = must.length > 0 ? must : should.length > 0 ? [or(should)] : [ALL];
    const negative = pick('MUST_NOT').map((child): QueryNode<string> => ({ kind: 'not', child }));
    return and([...positive, ...negative]);
  }

  private clause(c: LuceneAny, inherited: FieldCtx): QueryNode<string> {
    if (isRange(c)) return this.range(c, inherited);
    if (isTerm(c)) {
      const field = c.fieldLocation ? this.field(c.field, c.fieldLocation) : inherited;
      return c.quoted ? this.phrase(c, field) : this.term(c, field);
    }
    const field = c.field !== undefined && c.fieldLocation ? this.field(c.field, c.fieldLocation) : inherited;
    if (field === '*') throw this.starField(c.fieldLocation);
    return this.sequence(c, field);
  }

  private field(raw: string, loc: Loc): FieldCtx {
    const name = unescape(raw);
    if (name === '*' || this.fields.includes(name)) return name;
    const near = this.fields.find((f) => f.toLowerCase() === name.toLowerCase());
    const hint = near ? ` (field names are case-sensitive: did you mean '${near}'?)` : '';
    const expected = `one of the fields ${this.fields.join(', ')}`;
    throw new QuerySyntaxError(this.pos(loc), expected, `unknown field ${quote(name)}${hint}`);
  }

  private starField(loc: Loc | null | undefined): QuerySyntaxError {
    const expected = "'*:*' to match everything, or a field name such as preferredName";
    return new QuerySyntaxError(this.pos(loc), expected, "'*' is not a field name");
  }

  private phrase(c: LuceneTerm, field: FieldCtx): QueryNode<string> {
    if (field === '*') throw this.starField(c.fieldLocation);
    const text = unescape(c.term);
    if (text.trim() === '') {
      throw new QuerySyntaxError(this.pos(c.termLocation), 'words between the quotes', 'empty phrase');
    }
    const slop = this.modifiers.get(c.termLocation.start.offset)?.slop;
    return { kind: 'phrase', field, text, ...(slop === undefined || slop === 0 ? {} : { slop }), ...this.boost(c) };
  }

  /** Classifies a bare term by its unescaped '*' and '?'; escaped ones are literal. */
  private term(c: LuceneTerm, field: FieldCtx): QueryNode<string> {
    const raw = c.term;
    let text = '';
    let pattern = '';
    let stars = 0;
    let marks = 0;
    let endsWithStar = false;
    for (let k = 0; k < raw.length; k++) {
      const ch = raw[k] as string;
      endsWithStar = ch === '*';
      if (ch === '\\' && k + 1 < raw.length) {
        const lit = raw[++k] as string;
        text += lit;
        pattern += lit === '*' || lit === '?' || lit === '\\' ? `\\${lit}` : lit;
      } else if (ch === '*' || ch === '?') {
        if (ch === '*') stars++;
        else marks++;
        pattern += ch;
      } else {
        text += ch;
        pattern += ch;
      }
    }
    const onlyStars = stars > 0 && marks === 0 && text === '' && pattern === '*'.repeat(stars);
    if (field === '*') {
      if (onlyStars) return ALL;
      throw this.starField(c.fieldLocation);
    }
    if (onlyStars) return field === null ? ALL : { kind: 'exists', field };
    if (stars === 0 && marks === 0) {
      const node: TermSpan['node'] = { kind: 'term', field, text, ...this.boost(c) };
      this.spans?.push({ node, ...this.span(c) });
      return node;
    }
    if (stars === 1 && marks === 0 && endsWithStar) return { kind: 'prefix', field, text, ...this.boost(c) };
    return { kind: 'wildcard', field, pattern, ...this.boost(c) };
  }

  /**
   * Where a term stands in the user's query: lucene's termLocation may take the blank after
   * the term in, so the end is taken from the term's length in the prepared text (an escape
   * there, `\:`, stands for two characters of the user's query, a `/` made `\/` for one).
   */
  private span(c: LuceneTerm): { start: number; end: number } {
    const at = c.termLocation.start.offset;
    const last = this.origin[at + c.term.length - 1] ?? this.userText.length - 1;
    return { start: this.origin[at] ?? 0, end: last + (this.userText[last] === '\\' ? 2 : 1) };
  }

  private range(c: LuceneRange, inherited: FieldCtx): QueryNode<string> {
    const field = c.fieldLocation ? this.field(c.field, c.fieldLocation) : inherited;
    if (field === '*') throw this.starField(c.fieldLocation);
    if (field === null) {
      // the pre-pass rejects a range outside field:... already; kept for safety
      throw new QuerySyntaxError(0, 'a field name before the range, as in dateOfBirth:[1700 TO 1800]');
    }
    const bound = (raw: string): string | null => (raw === '*' ? null : unescape(raw));
    return {
      kind: 'range',
      field,
      lower: bound(c.term_min),
      upper: bound(c.term_max),
      includeLower: c.inclusive === 'both' || c.inclusive === 'left',
      includeUpper: c.inclusive === 'both' || c.inclusive === 'right',
    };
  }
}

/** Turns lucene's right-nested chain into the list of clauses with their operators. */
function flatten(root: LuceneNode): Item[] {
  const items: Item[] = [];
  let node: LuceneNode = root;
  let pending = decode(root.start);
  for (;;) {
    if (node.left === undefined) break;
    items.push({ ...pending, clause: node.left });
    if (node.right === undefined) break;
    pending = decode(node.operator);
    const r = node.right;
    if (isRange(r) || isTerm(r) || r.parenthesized) {
      items.push({ ...pending, clause: r });
      break;
    }
    // a continuation of the chain; it carries a `start` only if two operators met
    const extra = decode(r.start);
    pending = { conj: pending.conj ?? extra.conj, not: pending.not || extra.not };
    node = r;
  }
  return items;
}

function decode(op: string | undefined): { conj: 'AND' | 'OR' | null; not: boolean } {
  switch (op) {
    case 'AND':
    case '&&':
      return { conj: 'AND', not: false };
    case 'OR':
    case '||':
      return { conj: 'OR', not: false };
    case 'NOT':
      return { conj: null, not: true };
    case 'AND NOT':
      return { conj: 'AND', not: true };
    case 'OR NOT':
      return { conj: 'OR', not: true };
    default:
      return { conj: null, not: false };
  }
}

/** Lucene's escape rule: a backslash makes the next character literal. */
export function unescape(raw: string): string {
  return raw.replace(/\\([\s\S])/g, '$1');
}
