/**
 * The judged set of the relevance benchmark (./README.md): its queries and their judged
 * documents, read from ./judgements.json and checked (ids unique, grades 0 to 3, kinds and
 * languages known).
 */
import { readFileSync } from 'node:fs';

export const KINDS = ['inflection', 'transliteration', 'typo', 'multi-word', 'phrase', 'name'] as const;
export type Kind = (typeof KINDS)[number];
export const QUERY_LANGUAGES = ['de', 'en', 'fr'] as const;
export type QueryLanguage = (typeof QUERY_LANGUAGES)[number];

export interface JudgedQuery {
  /** Unique, e.g. `de-inflection-03`. */
  id: string;
  /** The language the query is written in (Xapian parses it with that language's stemmer). */
  language: QueryLanguage;
  kind: Kind;
  /** As a user types it into `query` of GET /search. */
  query: string;
  /** The regular expression (case-insensitive, Unicode) that found the candidates read (./candidates.ts). */
  foundBy: string;
  /** Judged documents: id → grade (3 exactly what was asked, 2 about it, 1 mentions it, 0 read and not relevant). */
  judged: Record<string, number>;
  /** Why the grades are what they are, where the field rule (fieldGrade) was not followed. */
  note?: string;
}

/**
 * The grade the field rule gives a candidate by the field its match is in (README "How the
 * set was judged"): the title or subtitle (the object's name, in German and in English for
 * the instruments) 3; keywords and persons 2 (for a query of kind `name`, a person of the
 * item 3); elsewhere (description, places, providers) 1.
 */
export function fieldGrade(field: string, kind?: Kind): number {
  if (field === 'title' || field === 'subtitle') return 3;
  if (field === 'affiliate') return kind === 'name' ? 3 : 2;
  if (field === 'keywords') return 2;
  return 1;
}

export const JUDGEMENTS_FILE = new URL('./judgements.json', import.meta.url);

/** Problems of a judged set: an empty list when it is well-formed. */
export function problemsOf(data: unknown): string[] {
  const out: string[] = [];
  const queries = (data as { queries?: unknown }).queries;
  if (!Array.isArray(queries)) return ['no "queries" array'];
  const ids = new Set<string>();
  for (const [i, q] of (queries as Array<Record<string, unknown>>).entries()) {
    const at = `queries[${i}] (${String(q['id'])})`;
    if (typeof q['id'] !== 'string' || q['id'] === '') out.push(`${at}: no id`);
    else if (ids.has(q['id'])) out.push(`${at}: id repeated`);
    else ids.add(q['id']);
    if (!QUERY_LANGUAGES.includes(q['language'] as QueryLanguage)) out.push(`${at}: language not one of ${QUERY_LANGUAGES.join(', ')}`);
    if (!KINDS.includes(q['kind'] as Kind)) out.push(`${at}: kind not one of ${KINDS.join(', ')}`);
    if (typeof q['query'] !== 'string' || q['query'].trim() === '') out.push(`${at}: no query`);
    if (typeof q['foundBy'] !== 'string') out.push(`${at}: no foundBy`);
    else {
      try {
        new RegExp(q['foundBy'], 'iu');
      } catch {
        out.push(`${at}: foundBy is not a regular expression`);
      }
    }
    const judged = q['judged'];
    if (typeof judged !== 'object' || judged === null || Array.isArray(judged)) {
      out.push(`${at}: no judged object`);
      continue;
    }
    const grades = Object.values(judged as Record<string, unknown>);
    for (const g of grades)
      if (!Number.isInteger(g) || (g as number) < 0 || (g as number) > 3) out.push(`${at}: grade ${String(g)} not 0 to 3`);
    if (!grades.some((g) => (g as number) > 0)) out.push(`${at}: no document judged relevant`);
    if (q['note'] !== undefined && typeof q['note'] !== 'string') out.push(`${at}: note not a string`);
  }
  return out;
}

export function readJudgements(): JudgedQuery[] {
  const data: unknown = JSON.parse(readFileSync(JUDGEMENTS_FILE, 'utf8'));
  const problems = problemsOf(data);
  if (problems.length > 0) throw new Error(`bench/relevance/judgements.json: ${problems.join('; ')}`);
  return (data as { queries: JudgedQuery[] }).queries;
}
