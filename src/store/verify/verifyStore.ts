/**
 * `heritage-api verify` (docs/cli.md "verify"): checks a store after a crash, a restore or a
 * disk fault, whatever the backend. The backend gives its rows (VerifySource); this checks
 * them, a page at a time, so a store of millions of items is checked in the memory of one
 * page:
 *
 * - the database's own checks (SQLite integrity_check, PostgreSQL amcheck where installed);
 * - rows that belong to no item (bodies, stored fields, providers of a deleted item);
 * - every package: both bodies present and decodable, the XML against its digest (the
 *   ETag, src/formats/packageEtag.ts), the JSON a JSON object, the stored fields (what a
 *   search answer shows) against what the JSON gives;
 * - the hierarchy: no cycle in dcterms:isPartOf; a parent that is not in the store is
 *   counted (a child loaded before its parent is allowed: docs/decisions.md "Hierarchy");
 * - every person: its document a JSON object with its own id.
 */
import { itemStoredFieldsJson } from '../../formats/itemFields.js';
import { packageEtag } from '../../formats/packageEtag.js';
import { decodeBody } from '../bodyCodec.js';
import { UsageError } from '../../errors.js';

/** An item's row with its bodies as stored (null: the row is missing). */
export interface StoredItem {
  num: number;
  id: string;
  etag: string;
  parentRef: string | null;
  xml: Buffer | null;
  json: Buffer | null;
  fields: string | null;
}

export interface StoredPerson {
  key: number;
  id: string;
  doc: string;
  gender: string;
}

/** An item as the hierarchy finds it by its ProvidedCHO URI. */
export interface HierarchyRow {
  id: string;
  parentRef: string | null;
}

export interface DatabaseCheck {
  /** What was run, as the operator can run it again (`PRAGMA integrity_check`). */
  name: string;
  /** What it found wrong; empty when nothing. */
  problems: string[];
  /** Set when the check could not run here, saying why and how to have it run. */
  skipped?: string;
}

export interface OrphanRows {
  /** The table, and what its rows name: `item_xml (bodies)`. */
  table: string;
  count: number;
  /** The first few keys. */
  examples: string[];
}

/** One backend's rows, read for the check; every read is bounded by `limit`. */
export interface VerifySource {
  /** The store as the report names it: its file, or its URL without the password. */
  location: string;
  backend: 'SQLite' | 'PostgreSQL';
  databaseChecks(): Promise<DatabaseCheck[]>;
  orphanRows(): Promise<OrphanRows[]>;
  countItems(): Promise<number>;
  /** Items after `afterNum`, in num order, with their bodies. */
  readItems(afterNum: number, limit: number): Promise<StoredItem[]>;
  /** For each URI, the item the hierarchy takes as its parent: the first (by num) with that ProvidedCHO URI. */
  itemsByChoUri(uris: readonly string[]): Promise<Map<string, HierarchyRow>>;
  countPersons(): Promise<number>;
  readPersons(afterKey: number, limit: number): Promise<StoredPerson[]>;
  close(): Promise<void>;
}

/** Problems listed per section; the rest are counted (a damaged store could give millions). */
export const MAX_LISTED = 50;

/** Deepest chain followed: as the hierarchy answers do (src/store/sqlite/items.ts). */
const MAX_DEPTH = 1000;

const ITEMS_PAGE = 200;
const PERSONS_PAGE = 2000;
const LOOKUP_CHUNK = 1000;

export interface Section {
  name: string;
  /** What was checked, in a few words with the number of things. */
  checked: string;
  problems: string[];
  /** All problems found, listed or not. */
  problemCount: number;
  /** Facts the operator should know that are not damage. */
  notes: string[];
}

export interface VerifyReport {
  location: string;
  backend: string;
  sections: Section[];
  problems: number;
}

class SectionBuilder implements Section {
  problems: string[] = [];
  problemCount = 0;
  notes: string[] = [];
  checked = '';
  constructor(readonly name: string) {}

  problem(text: string): void {
    this.problemCount += 1;
    if (this.problems.length < MAX_LISTED) this.problems.push(text);
  }
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Runs a section's reads; one that fails (a damaged page, SQLITE_CORRUPT) is a problem of
 * that section, and the next section is still checked. A store that cannot be reached is
 * no finding about the store: that error goes up.
 */
async function stoppable(section: SectionBuilder, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (e) {
    if (e instanceof UsageError) throw e;
    section.problem(`reading stopped here: ${message(e)}`);
  }
}

/** What is wrong with one stored package; empty when nothing. */
export function checkItem(item: StoredItem): string[] {
  const problems: string[] = [];
  const name = `item ${item.id}`;
  const decoded = (what: string, body: Buffer | null): Buffer | null => {
    if (body === null) {
      problems.push(`${name}: it has no ${what} body`);
      return null;
    }
    try {
      return decodeBody(body);
    } catch (e) {
      problems.push(`${name}: its ${what} body cannot be decoded (${message(e)})`);
      return null;
    }
  };
  const xml = decoded('XML', item.xml);
  if (xml !== null) {
    const etag = packageEtag(xml);
    if (etag !== item.etag)
      problems.push(`${name}: its XML body does not match its digest: the ETag stored is "${item.etag}", the body gives "${etag}"`);
  }
  const jsonBytes = decoded('JSON', item.json);
  let json: string | null = null;
  if (jsonBytes !== null) {
    json = jsonBytes.toString('utf8');
    try {
      const value: unknown = JSON.parse(json);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        problems.push(`${name}: its JSON body is not a JSON object`);
        json = null;
      }
    } catch (e) {
      problems.push(`${name}: its JSON body is not JSON (${message(e)})`);
      json = null;
    }
  }
  if (item.fields === null) problems.push(`${name}: it has no stored fields (what a search answer shows of it)`);
  else if (json !== null) {
    let expected: string | null = null;
    try {
      expected = itemStoredFieldsJson(json, item.id);
    } catch (e) {
      problems.push(`${name}: its stored fields cannot be computed from its JSON body (${message(e)})`);
    }
    if (expected !== null && expected !== item.fields) {
      problems.push(`${name}: its stored fields differ from what its package gives (a search answer would show the stored ones)`);
    }
  }
  return problems;
}

/** The loop with its smallest id first, so that one cycle found from each of its items is reported once. */
function cycleKey(loop: readonly string[]): string {
  let at = 0;
  for (let i = 1; i < loop.length; i++) if (loop[i]! < loop[at]!) at = i;
  return [...loop.slice(at), ...loop.slice(0, at)].join('\n');
}

interface Chain {
  path: string[];
  current: string;
}

/**
 * Follows the parents of one page of items up to their roots, a level at a time (one lookup
 * per level for the whole page): cycles, parents not in the store, chains past MAX_DEPTH.
 */
async function walkPage(
  source: VerifySource,
  page: readonly StoredItem[],
  found: { cycle(loop: string[]): void; dangling(id: string, parentRef: string): void; tooDeep(id: string): void },
): Promise<void> {
  const known = new Map<string, HierarchyRow | null>();
  let chains: Chain[] = page.flatMap((i) => (i.parentRef === null ? [] : [{ path: [i.id], current: i.parentRef }]));
  for (let level = 0; chains.length > 0; level++) {
    if (level >= MAX_DEPTH) {
      for (const c of chains) found.tooDeep(c.path[0]!);
      return;
    }
    const wanted = [...new Set(chains.map((c) => c.current).filter((u) => !known.has(u)))];
    for (let i = 0; i < wanted.length; i += LOOKUP_CHUNK) {
      const chunk = wanted.slice(i, i + LOOKUP_CHUNK);
      const rows = await source.itemsByChoUri(chunk);
      for (const uri of chunk) known.set(uri, rows.get(uri) ?? null);
    }
    const next: Chain[] = [];
    for (const chain of chains) {
      const parent = known.get(chain.current) ?? null;
      if (parent === null) {
        if (chain.path.length === 1) found.dangling(chain.path[0]!, chain.current);
        continue;
      }
      const at = chain.path.indexOf(parent.id);
      if (at >= 0) {
        found.cycle(chain.path.slice(at));
        continue;
      }
      chain.path.push(parent.id);
      if (parent.parentRef !== null) next.push({ path: chain.path, current: parent.parentRef });
    }
    chains = next;
  }
}

export interface VerifyProgress {
  done: number;
  total: number;
}

export async function verifyStore(source: VerifySource, onProgress: (p: VerifyProgress) => void = () => {}): Promise<VerifyReport> {
  const database = new SectionBuilder('database');
  const checks = await source.databaseChecks();
  database.checked = checks.map((c) => c.name).join(', ');
  for (const c of checks) {
    for (const p of c.problems) database.problem(`${c.name}: ${p}`);
    if (c.skipped !== undefined) database.notes.push(`${c.name}: not run: ${c.skipped}`);
  }

  const rows = new SectionBuilder('rows');
  rows.checked = 'rows of items that are gone';
  await stoppable(rows, async () => {
    const orphans = await source.orphanRows();
    rows.checked = `that no row of ${orphans.map((o) => o.table).join(', ')} belongs to an item that is gone`;
    for (const o of orphans) {
      if (o.count > 0)
        rows.problem(
          `${o.table}: ${o.count} rows of items that are not in the store (${o.examples.join(', ')}${o.count > o.examples.length ? ', …' : ''})`,
        );
    }
  });

  const count = async (what: () => Promise<number>) => {
    try {
      return await what();
    } catch {
      return 0; // the section that reads them reports why
    }
  };
  const total = (await count(() => source.countItems())) + (await count(() => source.countPersons()));
  let done = 0;
  onProgress({ done, total });

  const packages = new SectionBuilder('packages');
  const hierarchy = new SectionBuilder('hierarchy');
  const cycles = new Set<string>();
  let dangling = 0;
  const danglingExamples: string[] = [];
  let read = 0;
  await stoppable(packages, async () => {
    for (let after = 0; ;) {
      const page = await source.readItems(after, ITEMS_PAGE);
      if (page.length === 0) break;
      for (const item of page) for (const p of checkItem(item)) packages.problem(p);
      await walkPage(source, page, {
        cycle: (loop) => {
          const key = cycleKey(loop);
          if (cycles.has(key)) return;
          cycles.add(key);
          hierarchy.problem(`cycle in isPartOf: ${[...key.split('\n'), key.split('\n')[0]].join(' -> ')}`);
        },
        dangling: (id, parentRef) => {
          dangling += 1;
          if (danglingExamples.length < 5) danglingExamples.push(`${id} (isPartOf ${parentRef})`);
        },
        tooDeep: (id) => hierarchy.problem(`item ${id}: its chain of parents is longer than ${MAX_DEPTH}; no real hierarchy is that deep`),
      });
      read += page.length;
      done += page.length;
      onProgress({ done, total });
      after = page[page.length - 1]!.num;
    }
  });
  packages.checked = `${read} packages: both bodies, the XML against its ETag, the stored fields against the JSON`;
  hierarchy.checked = `the parents of ${read} items, to their roots`;
  if (dangling > 0) {
    hierarchy.notes.push(
      `${dangling === 1 ? '1 item names' : `${dangling} items name`} a parent that is not in the store (${danglingExamples.join(', ')}${dangling > danglingExamples.length ? ', …' : ''}); ` +
        'such an item answers as the top of its hierarchy until its parent is loaded',
    );
  }

  const people = new SectionBuilder('persons');
  let personsRead = 0;
  await stoppable(people, async () => {
    for (let after = 0; ;) {
      const page = await source.readPersons(after, PERSONS_PAGE);
      if (page.length === 0) break;
      for (const p of page) {
        let doc: unknown;
        try {
          doc = JSON.parse(p.doc);
        } catch (e) {
          people.problem(`person ${p.id}: its document is not JSON (${message(e)})`);
          continue;
        }
        if (typeof doc !== 'object' || doc === null || (doc as { id?: unknown }).id !== p.id) {
          people.problem(`person ${p.id}: its document is not the entity of this id`);
        }
        try {
          if (!Array.isArray(JSON.parse(p.gender))) people.problem(`person ${p.id}: its gender is not a JSON array`);
        } catch {
          people.problem(`person ${p.id}: its gender is not JSON`);
        }
      }
      personsRead += page.length;
      done += page.length;
      onProgress({ done, total });
      after = page[page.length - 1]!.key;
    }
  });
  people.checked = `${personsRead} persons: each document a JSON object with its own id`;

  const sections = [database, rows, packages, hierarchy, people];
  return { location: source.location, backend: source.backend, sections, problems: sections.reduce((n, s) => n + s.problemCount, 0) };
}
