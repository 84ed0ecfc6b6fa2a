/**
 * What the OAI-PMH provider serves of the store (docs/oai-pmh.md), kept by both backends in
 * the same tables and by this one algorithm:
 *
 * - `oai_records`: one row per item ever served, never removed (deletedRecord = persistent,
 *   OAI-PMH 2.0 section 2.5.1). `num` is given when the id is first seen and kept for its
 *   lifetime, tombstone included: a harvest pages in `num` order, so a record that exists
 *   from a harvest's start to its end is met exactly once, whatever changes meanwhile
 *   (docs/oai-pmh.md "Why a harvest is exact"). `datestamp` (seconds) moves whenever what a
 *   harvester gets for the id changes: its package, its deletion or block, or its sets.
 * - `oai_sets`: the sets of each record (section 2.7.2): `provider-<key>` (the institution
 *   that delivered it), `sector-<code>` (that institution's sectors) and
 *   `collection-<root id>` (every item below a hierarchy root, the root included). A
 *   deleted record keeps the sets it had, so a selective harvest learns of its deletion.
 * - `oai_changes`: ids whose record may have changed, appended by triggers on the item
 *   tables (so every writer feeds it) and emptied by refreshOaiRecords at the end of each
 *   write transaction, which stamps the datestamps last: the stamp is taken as close to the
 *   commit as the transaction allows.
 *
 * The algorithm is written once as a generator that asks for facts (OaiAsk) and is driven
 * synchronously by SQLite (src/store/sqlite/oaiRecords.ts) and asynchronously by PostgreSQL
 * (src/store/postgres/oaiRecords.ts).
 */

/** An item row as the refresh needs it. */
export interface OaiItemFact {
  id: string;
  choUri: string | null;
  parentRef: string | null;
  blocked: boolean;
  /** ms since 1970: the datestamp a migration gives records of items stored before it. */
  updatedAt: number;
}

/** An oai_records row with its sets. */
export interface OaiRecordFact {
  id: string;
  datestamp: number;
  deleted: boolean;
  choUri: string | null;
  root: string | null;
  sets: string[];
}

/** What the refresh writes for one id. `sets` null: keep the sets it has. */
export interface OaiRecordWrite {
  id: string;
  datestamp: number;
  deleted: boolean;
  choUri: string | null;
  root: string | null;
  sets: string[] | null;
}

export interface OaiOps {
  /** The items rows of these ids (absent ones are gone). */
  items: [string[], OaiItemFact[]];
  records: [string[], OaiRecordFact[]];
  /** For each URI, an item whose cho_uri it is (one, as getAncestry follows). */
  byChoUri: [string[], Array<{ choUri: string; id: string; parentRef: string | null }>];
  /** Items whose parent_ref is one of the URIs. */
  children: [string[], Array<{ id: string; parentRef: string }>];
  /** The institution (key and sectors, space-separated) that delivered each item, where known. */
  providers: [string[], Array<{ id: string; key: string; sectors: string }>];
  write: [OaiRecordWrite[], void];
}

export type OaiAsk = { [K in keyof OaiOps]: { op: K; arg: OaiOps[K][0] } }[keyof OaiOps];
export type OaiPlan = Generator<OaiAsk, void, unknown>;

function* ask<K extends keyof OaiOps>(op: K, arg: OaiOps[K][0]): Generator<OaiAsk, OaiOps[K][1], unknown> {
  return (yield { op, arg } as OaiAsk) as OaiOps[K][1];
}

/** A parent chain longer than this is broken data (as src/store/sqlite/items.ts MAX_DEPTH). */
const MAX_DEPTH = 1000;

/**
 * setSpec text (section 2.7.2 allows A-Z a-z 0-9 - _ . ! ~ * ' ( )): any other character,
 * and `~` itself, as `~` and the two hex digits of each of its UTF-8 bytes. Reversible.
 */
export function setSpecPart(value: string): string {
  let out = '';
  for (const ch of value) {
    if (/^[A-Za-z0-9\-_.]$/.test(ch)) out += ch;
    else for (const byte of Buffer.from(ch, 'utf8')) out += `~${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The value setSpecPart encoded; undefined when `part` is not such an encoding. */
export function setSpecValue(part: string): string | undefined {
  if (!/^(?:[A-Za-z0-9\-_.]|~[0-9A-F]{2})+$/.test(part)) return undefined;
  const bytes: number[] = [];
  for (let i = 0; i < part.length;) {
    if (part[i] === '~') {
      bytes.push(parseInt(part.slice(i + 1, i + 3), 16));
      i += 3;
    } else bytes.push(part.charCodeAt(i++));
  }
  const text = Buffer.from(bytes).toString('utf8');
  return setSpecPart(text) === part ? text : undefined;
}

export const SET_KINDS = ['provider', 'sector', 'collection'] as const;
export type SetKind = (typeof SET_KINDS)[number];

export function setSpec(kind: SetKind, value: string): string {
  return `${kind}-${setSpecPart(value)}`;
}

/** The kind and value of a setSpec this store gives, or undefined. */
export function parseSetSpec(spec: string): { kind: SetKind; value: string } | undefined {
  const dash = spec.indexOf('-');
  const kind = spec.slice(0, dash) as SetKind;
  if (dash < 0 || !SET_KINDS.includes(kind)) return undefined;
  const value = setSpecValue(spec.slice(dash + 1));
  return value === undefined ? undefined : { kind, value };
}

const sameSets = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((s, i) => s === b[i]);

export interface RefreshOptions {
  /** Seconds since 1970: the datestamp of every record changed. */
  now: number;
  /** Migration: a record first made for a stored item is stamped with the item's updated_at instead. */
  stampFromItems?: boolean;
}

/**
 * Brings oai_records and oai_sets up to date for `changed` (ids whose package, block or row
 * changed) and for every id whose sets follow from theirs: the descendants of an item that
 * came, went or moved (their collection root changes) and the roots before and after (a
 * root with its first or without its last child joins or leaves its own collection).
 */
export function* refreshPlan(changed: readonly string[], options: RefreshOptions): OaiPlan {
  const done = new Set<string>();
  let forced = new Set(changed);
  let queue = [...forced];
  while (queue.length > 0) {
    const ids = [...new Set(queue)].filter((id) => !done.has(id));
    queue = [];
    if (ids.length === 0) break;
    ids.forEach((id) => done.add(id));
    const items = new Map((yield* ask('items', ids)).map((f) => [f.id, f]));
    const records = new Map((yield* ask('records', ids)).map((r) => [r.id, r]));
    const roots = yield* rootsOf([...items.values()]);
    const withChildren = new Set(
      (yield* ask(
        'children',
        [...items.values()].flatMap((f) => (f.choUri === null ? [] : [f.choUri])),
      )).map((c) => c.parentRef),
    );
    const providers = new Map((yield* ask('providers', [...items.keys()])).map((p) => [p.id, p]));
    const writes: OaiRecordWrite[] = [];
    const childUris: string[] = [];
    for (const id of ids) {
      const item = items.get(id);
      const old = records.get(id);
      if (item === undefined && old === undefined) continue;
      const root = item === undefined ? null : roots.get(id)!;
      // An item without a CHO URI (null) keeps null: `??` would reach for a record that a new item lacks.
      const choUri = item !== undefined ? item.choUri : old!.choUri;
      const live = item !== undefined && !item.blocked;
      let sets: string[] | null = null;
      if (live) {
        const p = providers.get(id);
        const list: string[] = [];
        if (p !== undefined) {
          list.push(setSpec('provider', p.key));
          for (const s of p.sectors.split(' ')) if (s !== '') list.push(setSpec('sector', s));
        }
        if (root !== id || (item.choUri !== null && withChildren.has(item.choUri))) list.push(setSpec('collection', root!));
        sets = [...new Set(list)].sort();
      }
      const setsChanged = sets !== null && (old === undefined || !sameSets(sets, old.sets));
      const change = forced.has(id) || old === undefined || old.deleted === live || setsChanged;
      const moved = old === undefined || root !== old.root || choUri !== old.choUri;
      if (change) {
        const stamp = options.stampFromItems && old === undefined && item !== undefined ? Math.floor(item.updatedAt / 1000) : options.now;
        writes.push({ id, datestamp: stamp, deleted: !live, choUri, root, sets: setsChanged ? sets : null });
      } else if (moved) {
        writes.push({ id, datestamp: old.datestamp, deleted: old.deleted, choUri, root, sets: null });
      }
      // Came, went or moved (a gone item has no root): its descendants' root follows, and the
      // roots around it may gain or lose a child.
      if (moved) {
        if (old?.choUri) childUris.push(old.choUri);
        if (item?.choUri && item.choUri !== old?.choUri) childUris.push(item.choUri);
        if (old?.root && old.root !== id) queue.push(old.root);
        if (root !== null && root !== id) queue.push(root);
      }
    }
    if (writes.length > 0) yield* ask('write', writes);
    if (childUris.length > 0) for (const c of yield* ask('children', childUris)) queue.push(c.id);
    forced = new Set();
  }
}

/** The topmost ancestor in the store of each item (itself without one); a cycle ends at its last new member. */
function* rootsOf(items: OaiItemFact[]): Generator<OaiAsk, Map<string, string>, unknown> {
  const roots = new Map<string, string>();
  // Per item: the chain walked so far and the parent URI to look up next.
  let walks = items.map((f) => ({ id: f.id, top: f.id, next: f.parentRef, seen: new Set([f.id]) }));
  for (let depth = 0; walks.length > 0 && depth < MAX_DEPTH; depth++) {
    const open = walks.filter((w) => w.next !== null);
    for (const w of walks) if (w.next === null) roots.set(w.id, w.top);
    if (open.length === 0) break;
    const found = new Map((yield* ask('byChoUri', [...new Set(open.map((w) => w.next!))])).map((p) => [p.choUri, p]));
    walks = [];
    for (const w of open) {
      const parent = found.get(w.next!);
      if (parent === undefined || w.seen.has(parent.id)) {
        roots.set(w.id, w.top);
        continue;
      }
      w.seen.add(parent.id);
      walks.push({ id: w.id, top: parent.id, next: parent.parentRef, seen: w.seen });
    }
  }
  for (const w of walks) if (!roots.has(w.id)) roots.set(w.id, w.top);
  return roots;
}

/** Runs a plan against synchronous lookups (SQLite). */
export function runPlanSync(plan: OaiPlan, ops: { [K in keyof OaiOps]: (arg: OaiOps[K][0]) => OaiOps[K][1] }): void {
  let step = plan.next();
  while (!step.done) {
    const a = step.value;
    step = plan.next((ops[a.op] as (x: unknown) => unknown)(a.arg));
  }
}

/** Runs a plan against asynchronous lookups (PostgreSQL). */
export async function runPlan(plan: OaiPlan, ops: { [K in keyof OaiOps]: (arg: OaiOps[K][0]) => Promise<OaiOps[K][1]> }): Promise<void> {
  let step = plan.next();
  while (!step.done) {
    const a = step.value;
    step = plan.next(await (ops[a.op] as (x: unknown) => Promise<unknown>)(a.arg));
  }
}
