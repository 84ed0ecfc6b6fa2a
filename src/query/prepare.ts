/**
 * Lexical pre-pass run before the `lucene` package parses a query (see parse.ts for why).
 *
 * It is a flat, left-to-right scan, not a parser: it builds no tree. It only knows where
 * quotes, escapes, parentheses and range brackets begin and end, and which words are
 * operators, which is what is needed to
 *   1. reject what lucene 2.1.1 silently misreads or drops, with a position and an
 *      expectation (`a AND`, `OR b`, `AND AND`, `NOT -a`, `(a`, `a)`, `"a`, `id:`,
 *      `term~1`, `a:b:c`, a trailing `\`, a range without a field);
 *   2. rewrite the query into a canonical text that lucene reads correctly:
 *      - tokens separated by exactly one space (lucene loses `NOT` in `a AND  NOT b`, and
 *        needs spaces around `AND` in `(a)AND(b)` and inside `[ a TO b ]`);
 *      - `&&` -> `AND`, `||` -> `OR`, prefix `-`/`!` -> `NOT` (lucene cannot negate a group
 *        or a field: `-(a b)` is an error and `-id:x` reads field "-id");
 *      - prefix `+` dropped: with the default operator AND, Lucene's QueryParser ignores it
 *        (a clause is required unless introduced by OR, with or without `+`);
 *      - `/` -> `\/` (lucene would start a regex; we have none, so URIs work unescaped);
 *      - boosts (`^2`, `^0.5`) and proximities (`"a b"~2`) taken out, kept beside the text
 *        (`modifiers`) for the compiler; a boost of a group or range dropped (the tree has
 *        no node to carry it);
 *      - quoted range bounds `["a b" TO c]` -> `[a\ b TO c]` (lucene has no quoted bounds);
 *      - in phrases, `\x` for an x lucene cannot escape -> `x` (Lucene's meaning);
 *   3. keep, for every character of the rewritten text, its offset in the user's query, so
 *      that positions reported by lucene or the compiler point into what the user sent.
 */
import { QuerySyntaxError } from './errors.js';

export interface Prepared {
  /** The canonical query text handed to lucene. */
  text: string;
  /** origin[i] = offset in the user's query of text[i]; origin[text.length] = its length. */
  origin: number[];
  /** [start, end) of each range in `text`, to word lucene's errors inside ranges. */
  ranges: Array<[number, number]>;
  /**
   * The boost (`^N`) and proximity (`~N`) of terms and phrases, by the offset in `text` where
   * the term or phrase begins (lucene's termLocation): they are taken out of the text, since
   * lucene 2.1.1 reads `a^2.5` as `a^2` and a term `.5`.
   */
  modifiers: Map<number, { boost?: number; slop?: number }>;
}

/** The characters lucene 2.1.1 accepts after a backslash (its EscapeSequence rule). */
const LUCENE_ESCAPABLE = new Set('+-!(){}[]^"?:\\&|\'/~* ');
/** Unescaped, these end a bare word. `:` ends a field name. */
const WORD_STOP = /[\s()[\]{}":^~]/;
const WHITESPACE = /\s/;
const BINARY: Record<string, string> = { AND: 'AND', '&&': 'AND', OR: 'OR', '||': 'OR' };
/** Bounds recursion in lucene and in the compiler for any maxLength a caller sets. */
export const MAX_DEPTH = 32;
const BOOST = /^\^(?:\d+(?:\.\d+)?|\.\d+)/;
/** A proximity after a phrase, `~N`; at most MAX_SLOP (a larger one is a broad AND of the words). */
const SLOP = /^~(\d+)/;
export const MAX_SLOP = 100;

type Prev =
  | { kind: 'start' } // beginning of the query or just after '('
  | { kind: 'operand'; phrase: boolean } // after a term, phrase, range or ')'
  | { kind: 'op'; text: string; unary: boolean } // after AND/OR (binary) or NOT/+/-/! (unary)
  | { kind: 'field'; name: string }; // after 'name:'

export function prepare(src: string): Prepared {
  return new Scanner(src).run();
}

class Scanner {
  private out = '';
  private readonly origin: number[] = [];
  private readonly ranges: Array<[number, number]> = [];
  private readonly modifiers = new Map<number, { boost?: number; slop?: number }>();
  /** Where in `out` the last term or phrase begins. */
  private operandStart = 0;
  private readonly parens: Array<{ at: number; fieldGroup: boolean }> = [];
  private prev: Prev = { kind: 'start' };
  private i = 0;

  constructor(private readonly src: string) {}

  run(): Prepared {
    const s = this.src;
    while (this.i < s.length) {
      const c = s[this.i] as string;
      if (WHITESPACE.test(c)) this.i++;
      else if (c === '(') this.open();
      else if (c === ')') this.close();
      else if (c === '"') this.phrase();
      else if (c === '[' || c === '{') this.range();
      else if (c === ']' || c === '}') {
        const expected = `a range such as dateOfBirth:[1700 TO 1800], or '\\${c}' for the character itself`;
        throw new QuerySyntaxError(this.i, expected, `'${c}' closes no range`);
      } else if (c === ':') {
        const p = this.prev;
        const expected = p.kind === 'field' ? `a value after '${p.name}:'` : "a field name right before ':', as in preferredName:Goethe";
        throw new QuerySyntaxError(this.i, expected);
      } else if (c === '^') {
        throw new QuerySyntaxError(this.i, "a term right before '^' (a boost, as in goethe^2)");
      } else if (c === '~') {
        throw new QuerySyntaxError(this.i, 'a proximity right after a phrase\'s closing quote, as in "a b"~3', "'~' after a blank");
      } else this.word();
    }
    this.finish();
    this.origin.push(s.length);
    return { text: this.out, origin: this.origin, ranges: this.ranges, modifiers: this.modifiers };
  }

  /** Appends text whose characters all come from offset `at`. */
  private put(text: string, at: number): void {
    this.out += text;
    for (let k = 0; k < text.length; k++) this.origin.push(at);
  }

  /** Starts a new token: one space after the previous one, none after 'field:'. */
  private sep(at: number): void {
    if (this.out.length > 0 && this.prev.kind !== 'field') this.put(' ', at);
  }

  private open(): void {
    if (this.parens.length >= MAX_DEPTH) {
      throw new QuerySyntaxError(this.i, `at most ${MAX_DEPTH} levels of nested parentheses`);
    }
    this.parens.push({ at: this.i, fieldGroup: this.prev.kind === 'field' });
    this.sep(this.i);
    this.put('(', this.i);
    this.prev = { kind: 'start' };
    this.i++;
  }

  private close(): void {
    const at = this.i;
    if (this.parens.length === 0) {
      throw new QuerySyntaxError(at, "'(' earlier in the query to match this ')'", "')' closes no '('");
    }
    if (this.prev.kind === 'start') throw new QuerySyntaxError(at, "a term between '(' and ')'");
    this.requireOperand(at);
    this.parens.pop();
    this.sep(at);
    this.put(')', at);
    this.i++;
    this.afterOperand(false, false);
  }

  private phrase(): void {
    const s = this.src;
    const start = this.i;
    this.sep(start);
    this.operandStart = this.out.length;
    this.put('"', start);
    let j = start + 1;
    for (;;) {
      const ch = s[j];
      if (ch === undefined || (ch === '\\' && j + 1 >= s.length)) {
        throw new QuerySyntaxError(s.length, `'"' to close the phrase opened at position ${start}`);
      }
      if (ch === '"') break;
      if (ch === '\\') {
        const next = s[j + 1] as string;
        this.put(LUCENE_ESCAPABLE.has(next) ? `\\${next}` : next, j);
        j += 2;
      } else {
        this.put(ch, j);
        j++;
      }
    }
    this.put('"', j);
    this.i = j + 1;
    this.afterOperand(true);
  }

  private range(): void {
    const s = this.src;
    const start = this.i;
    if (this.prev.kind !== 'field' && !this.parens.some((p) => p.fieldGroup)) {
      const expected = `a field name before '${s[start]}', as in dateOfBirth:[1700 TO 1800]`;
      throw new QuerySyntaxError(start, expected, 'a range needs a field');
    }
    const unclosed = (): QuerySyntaxError => new QuerySyntaxError(s.length, `']' or '}' to close the range opened at position ${start}`);
    this.sep(start);
    const from = this.out.length;
    this.put(s[start] as string, start);
    let j = start + 1;
    let gap = false; // whitespace seen since the last piece: emit one space before the next
    let first = true; // nothing emitted inside the brackets yet: leading blanks are dropped
    const add = (text: string, at: number): void => {
      if (gap && !first) this.put(' ', at);
      gap = false;
      first = false;
      this.put(text, at);
    };
    for (;;) {
      const ch = s[j];
      if (ch === undefined) throw unclosed();
      if (ch === ']' || ch === '}') break;
      if (WHITESPACE.test(ch)) {
        gap = true;
        j++;
      } else if (ch === '\\') {
        const next = s[j + 1];
        if (next === undefined) throw this.trailingBackslash(j);
        add(WHITESPACE.test(next) ? '\\ ' : `\\${next}`, j);
        j += 2;
      } else if (ch === '"') {
        // A quoted bound becomes one bare bound with every special character escaped.
        const q = j;
        let text = '';
        j++;
        for (;;) {
          const c2 = s[j];
          if (c2 === undefined) throw new QuerySyntaxError(s.length, `'"' to close the phrase opened at position ${q}`);
          if (c2 === '"') break;
          const lit = c2 === '\\' && j + 1 < s.length ? (s[++j] as string) : c2;
          text += LUCENE_ESCAPABLE.has(lit) || WHITESPACE.test(lit) ? `\\${WHITESPACE.test(lit) ? ' ' : lit}` : lit;
          j++;
        }
        if (text === '') throw new QuerySyntaxError(q, 'a bound between the quotes (use * for an open bound)');
        add(text, q);
        j++;
      } else {
        add(ch === '/' ? '\\/' : ch, j);
        j++;
      }
    }
    this.put(s[j] as string, j);
    this.ranges.push([from, this.out.length]);
    this.i = j + 1;
    this.afterOperand(false, false);
  }

  private word(): void {
    const s = this.src;
    const at = this.i;
    const c = s[at] as string;
    if (c === '+' || c === '-' || c === '!') {
      if (this.prev.kind === 'field') {
        const { name } = this.prev;
        const verb = c === '+' ? 'require' : 'exclude';
        const expected = `the value right after '${name}:' (write ${c}${name}:value to ${verb} it)`;
        throw new QuerySyntaxError(at, expected, `'${c}' between a field name and its value`);
      }
      this.unary(c, at);
      if (c !== '+') this.emitToken('NOT', at);
      this.i++;
      return;
    }
    let j = at;
    const pieces: Array<[string, number]> = [];
    while (j < s.length) {
      const ch = s[j] as string;
      if (ch === '\\') {
        const next = s[j + 1];
        if (next === undefined) throw this.trailingBackslash(j);
        // lucene takes '\' + any non-space character; an escaped blank becomes '\ '
        pieces.push([WHITESPACE.test(next) ? '\\ ' : `\\${next}`, j]);
        j += 2;
        continue;
      }
      if (WORD_STOP.test(ch)) break;
      pieces.push([ch === '/' ? '\\/' : ch, j]);
      j++;
    }
    const raw = s.slice(at, j);
    const isField = s[j] === ':';
    if (isField) {
      if (this.prev.kind === 'field') {
        const name = this.prev.name;
        const value = (s.slice(at).split(/\s/)[0] ?? '').replace(/"/g, '\\"');
        const example = value.length > 60 ? `${value.slice(0, 57)}...` : value;
        const expected = `'\\:' for a literal colon, or the value in quotes, as in ${name}:"${example}"`;
        throw new QuerySyntaxError(j, expected, `unescaped ':' in the value of '${name}:'`);
      }
    } else if (this.prev.kind !== 'field' && BINARY[raw] !== undefined) {
      this.binary(raw, at);
      this.i = j;
      return;
    } else if (this.prev.kind !== 'field' && raw === 'NOT') {
      this.unary(raw, at);
      this.emitToken('NOT', at);
      this.i = j;
      return;
    }
    this.sep(at);
    this.operandStart = this.out.length;
    for (const [text, from] of pieces) this.put(text, from);
    if (isField) {
      this.put(':', j);
      this.prev = { kind: 'field', name: raw };
      this.i = j + 1;
    } else {
      this.i = j;
      this.afterOperand(false);
    }
  }

  private emitToken(text: string, at: number): void {
    this.sep(at);
    this.put(text, at);
  }

  private binary(raw: string, at: number): void {
    const p = this.prev;
    if (p.kind === 'start') throw new QuerySyntaxError(at, `a term before '${raw}'`);
    this.requireOperand(at);
    this.emitToken(BINARY[raw] as string, at);
    this.prev = { kind: 'op', text: raw, unary: false };
  }

  private unary(raw: string, at: number): void {
    const p = this.prev;
    if (p.kind === 'op' && p.unary) throw new QuerySyntaxError(at, `a term after '${p.text}'`);
    this.prev = { kind: 'op', text: raw, unary: true };
  }

  /** Fails unless the previous token can end an operand (a term, phrase, range or group). */
  private requireOperand(at: number): void {
    const p = this.prev;
    if (p.kind === 'op') throw new QuerySyntaxError(at, `a term after '${p.text}'`);
    if (p.kind === 'field') throw new QuerySyntaxError(at, `a value after '${p.name}:'`);
  }

  /**
   * After an operand: a proximity `~N` after a phrase and a boost `^N` after a term or
   * phrase are kept in `modifiers` (in this order, as Lucene writes them: `"a b"~2^3`); a
   * boost after a group or range is dropped (the tree has no node to carry it); fuzzy
   * `term~` is rejected.
   */
  private afterOperand(phrase: boolean, boostable = true): void {
    this.prev = { kind: 'operand', phrase };
    let rest = this.src.slice(this.i);
    if (rest.startsWith('~')) {
      if (!phrase) this.tilde();
      const m = SLOP.exec(rest);
      if (!m) throw new QuerySyntaxError(this.i + 1, `a whole number from 0 to ${MAX_SLOP} after '~' (a proximity, as in "a b"~3)`);
      if (Number(m[1]) > MAX_SLOP) {
        throw new QuerySyntaxError(this.i + 1, `a proximity from 0 to ${MAX_SLOP}`, `proximity ${m[1]} is too large`);
      }
      this.modify({ slop: Number(m[1]) });
      this.i += m[0].length;
      rest = this.src.slice(this.i);
    }
    if (rest.startsWith('^')) {
      const m = BOOST.exec(rest);
      if (!m) throw new QuerySyntaxError(this.i + 1, "a number after '^' (a boost, as in goethe^2)");
      if (boostable) this.modify({ boost: Number(m[0].slice(1)) });
      this.i += m[0].length;
      rest = this.src.slice(this.i);
    }
    if (rest.startsWith('^') || rest.startsWith('~')) {
      const expected = phrase ? 'one proximity, then one boost, as in "a b"~2^3' : 'one boost, as in goethe^2';
      throw new QuerySyntaxError(this.i, expected, `a second '${rest[0]}'`);
    }
  }

  private modify(m: { boost?: number; slop?: number }): void {
    this.modifiers.set(this.operandStart, { ...this.modifiers.get(this.operandStart), ...m });
  }

  private tilde(): never {
    throw new QuerySyntaxError(
      this.i,
      "the term without '~'; for variant spellings use a wildcard such as goe* or g?the",
      "fuzzy search ('term~') is not supported",
    );
  }

  private trailingBackslash(at: number): QuerySyntaxError {
    const expected = "a character after '\\' (write '\\\\' for a backslash)";
    return new QuerySyntaxError(at, expected, "the query ends with a lone '\\'");
  }

  private finish(): void {
    const end = this.src.length;
    const p = this.prev;
    const open = this.parens[this.parens.length - 1];
    if (p.kind === 'start') throw new QuerySyntaxError(end, open ? "a term after '('" : 'a term');
    this.requireOperand(end);
    if (open) throw new QuerySyntaxError(end, `')' to close '(' opened at position ${open.at}`);
  }
}
