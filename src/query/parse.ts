/**
 * Query parser of GET /entities?query=... : Lucene/Solr standard syntax -> QueryNode.
 *
 * LIBRARY CHOICE
 * The query is parsed by the `lucene` npm package (2.1.1, MIT, a PEG.js grammar; about
 * 18 µs a parse), wrapped by a small documented pre-pass (prepare.ts) and a compiler of its
 * tree (compile.ts). The npm registry has no maintained parser that is clearly better:
 *   - liqe 3.8.7 (maintained) rejects `*:*`, `^2`, `~1`, a leading `+`, `&&`, `x:(a b)`,
 *     non-numeric or `*` range bounds, and backslash escapes outside quotes;
 *   - lucene-kit 1.3.0 reads `a OR b c` as one term and `-x:a` as field "-x", no boosts;
 *   - @hyperdx/lucene 3.1.1 republishes this same grammar, only allowing `/` in terms;
 *   - @lucene-tools/core 1.0.0 is a tokenizer for editor completion, not a parser.
 * `lucene` covers the most (fields, field groups, phrases, all operators and prefixes,
 * inclusive/exclusive/mixed ranges with `*` bounds, wildcards, escapes in terms), so no
 * dependency was added. Its gaps, each covered in prepare.ts and tested in
 * test/query/prepare.test.ts: it silently drops dangling or doubled operators (`a AND`,
 * `OR b`, `a AND AND b`, `a AND  NOT b`), cannot negate a group or a field (`-(a b)`,
 * `-id:x`), fails on `/` (so on unquoted URIs, even escaped: `http\://...`), misreads
 * `term~1` as `term~` plus `1`, has no quoted range bounds, and needs blanks around
 * operators. It has no positions for groups and ranges; the pre-pass checks those.
 *
 * GRAMMAR ACCEPTED (EBNF; blanks separate items and may follow '(' , ':' and a prefix,
 * but none may stand before ':' or '^')
 *   query     = sequence ;
 *   sequence  = item , { [ conj ] , item } ;          (* no conj: the default, AND *)
 *   conj      = "AND" | "&&" | "OR" | "||" ;          (* upper case, as whole words *)
 *   item      = [ "NOT" | "-" | "!" | "+" ] , clause ;
 *   clause    = [ field , ":" ] , ( term | phrase , [ proximity ] | group | range ) , [ boost ] ;
 *   field     = "id" | "type" | "preferredName" | "variantName" | "dateOfBirth"
 *             | "dateOfDeath" | "placeOfBirth" | "placeOfDeath"
 *             | "professionOrOccupation" | "gender" | "count" | "*" ;  (* "*" only in *:* *)
 *   group     = "(" , sequence , ")" ;                (* field:( ... ) sets the field inside *)
 *   range     = ( "[" | "{" ) , bound , "TO" , bound , ( "]" | "}" ) ;  (* needs a field *)
 *   bound     = "*" | word | phrase ;                 (* "*" = open *)
 *   phrase    = '"' , { char - ( '"' | "\" ) | escape } , '"' ;
 *   term      = word ;                     (* a word AND, OR, NOT alone is an operator *)
 *   word      = ( wordchar | escape ) , { wordchar | escape | "+" | "-" | "!" } ;
 *   wordchar  = char - ( blank | "(" | ")" | "[" | "]" | "{" | "}" | '"' | ":" | "^"
 *             | "~" | "\" | "+" | "-" | "!" ) ;
 *   escape    = "\" , char ;                          (* the char, literally *)
 *   proximity = "~" , digits ;                        (* 0 to 100, right after the quote *)
 *   boost     = "^" , number ;                        (* on a group or range: ignored *)
 * Meaning of a term: only unescaped `*`s = all (no field) or exists (with a field);
 * one trailing `*` = prefix; any other unescaped `*`/`?` = wildcard; else a plain term.
 * `/` is an ordinary character (no /regex/), so unquoted URIs need only `\:` escaped.
 *
 * DECISIONS
 *   - Precedence: as Lucene's classic QueryParser with default operator AND; there is no
 *     binding strength, each clause of a sequence is required, optional or prohibited
 *     (compile.ts). `a OR b` = OR(a, b); `a b` = `a AND b` = AND(a, b); `+a -b c` =
 *     AND(a, c, NOT(b)); mixed `a OR b c`: a and b become optional, c required, and since
 *     optional clauses next to a required one only score in Lucene, it matches like `c`
 *     (likewise `a AND b OR c` like `a`). Use parentheses: `(a OR b) c`.
 *   - Only-negative sequences (`-a`, `NOT a`, also inside parentheses) = AND(ALL, NOT(a)).
 *   - Boost `^N` on a term or phrase multiplies its score (Lucene's boost; `boost` on the
 *     node); on a group or a range it is accepted and ignored (the tree has no node to
 *     carry it). Proximity `"a b"~N` is a phrase with `slop` N (Lucene's sloppy phrase,
 *     docs/search.md "Proximity"). Fuzzy `term~N` is rejected at the position of `~`, with
 *     what to write instead.
 *   - `+` is accepted and, as in Lucene with default AND, changes nothing.
 *   - The empty or blank query is an error (the caller maps a missing parameter to *:*).
 *   - Field names are case-sensitive; an unknown one is an error listing the known ones.
 *   - Errors: the position is where the missing thing was expected (`a AND` -> 5, the end)
 *     or where the offending character stands (`a~1` -> 1); QuerySyntaxError is the only
 *     error thrown, for any input string (test/query/errors.test.ts feeds random ones).
 */
import { QUERY_FIELDS, type QueryField, type QueryNode, type TermSpan } from './ast.js';
import { Compiler } from './compile.js';
import { QuerySyntaxError } from './errors.js';
import { parseLucene } from './lucene.js';
import { prepare } from './prepare.js';

export { QuerySyntaxError } from './errors.js';
export { QUERY_FIELDS, queryToString } from './ast.js';
export type { QueryField, QueryNode, TermSpan } from './ast.js';

export const DEFAULT_MAX_LENGTH = 1000;

/** Marks a QuerySyntaxError made from an unexpected internal failure (tests look for it). */
export const INTERNAL_FAILURE = 'a query the parser can handle (this is a bug in the service)';

export interface ParseOptions {
  /** Longest accepted query in characters (UTF-16 code units); default 1000. */
  maxLength?: number;
  /**
   * What two clauses without an operator between them mean (Solr's q.op, v1 /search's
   * defaultOperator): AND (the default) makes each such clause required, OR optional
   * (compile.ts).
   */
  defaultOperator?: 'AND' | 'OR';
}

export interface FieldParseOptions extends ParseOptions {
  /** The field names a query may use (case-sensitive), e.g. a search schema's; default the person fields. */
  fields: readonly string[];
}

/** Parses a query; throws only QuerySyntaxError, whatever the input. */
export function parseQuery(text: string, options?: ParseOptions): QueryNode<QueryField>;
export function parseQuery(text: string, options: FieldParseOptions): QueryNode<string>;
export function parseQuery(text: string, options: ParseOptions & { fields?: readonly string[] } = {}): QueryNode<string> {
  return parse(text, options);
}

/**
 * Parses a query as parseQuery does, and says where each plain term node of the tree stands
 * in `text`, in query order. The nodes are those of the tree (by identity); a term the
 * tree leaves out (an optional clause beside a required one, `a OR b c`) is listed too.
 */
export function parseQueryWithTerms(text: string, options: FieldParseOptions): { query: QueryNode<string>; terms: TermSpan[] } {
  const terms: TermSpan[] = [];
  return { query: parse(text, options, terms), terms };
}

function parse(text: string, options: ParseOptions & { fields?: readonly string[] }, spans?: TermSpan[]): QueryNode<string> {
  const fields = options.fields ?? QUERY_FIELDS;
  if (typeof text !== 'string') throw new QuerySyntaxError(0, 'a query string');
  const maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH;
  if (text.length > maxLength) {
    const problem = `the query is longer than ${maxLength} characters`;
    throw new QuerySyntaxError(maxLength, `at most ${maxLength} characters`, problem);
  }
  if (text.trim() === '') {
    throw new QuerySyntaxError(0, 'a term, a phrase, or *:* for everything', 'query must not be empty');
  }
  try {
    const prepared = prepare(text);
    const tree = parseLucene(prepared, text);
    return new Compiler(prepared.origin, text, fields, options.defaultOperator ?? 'AND', spans, prepared.modifiers).compile(tree);
  } catch (e) {
    if (e instanceof QuerySyntaxError) throw e;
    // The contract is "only QuerySyntaxError"; a bug must still not become a 500 here.
    const err = new QuerySyntaxError(0, INTERNAL_FAILURE, 'the query could not be parsed');
    (err as Error).cause = e;
    throw err;
  }
}
