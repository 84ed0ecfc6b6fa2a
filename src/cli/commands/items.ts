/**
 * `heritage-api items block ID --reason TEXT` and `items unblock ID`:
 * a blocked item answers 403 with the reason (spec section 7).
 * `items list` and `items show ID`: what is in the store, so that an operator can find the ids
 * of what a load stored.
 */
import type { ItemFormat, Store } from '../../store/Store.js';
import { EXIT, type CliIo } from '../io.js';

export async function blockItem(store: Store, id: string, reason: string, io: CliIo): Promise<number> {
  if (reason.trim() === '') {
    io.err('Give a reason with --reason TEXT; it is shown to clients in the 403 message.');
    return EXIT.failed;
  }
  if (!(await store.blockItem(id, reason.trim()))) {
    io.err(`No item '${id}' in the store. Load it first, or check the id.`);
    return EXIT.failed;
  }
  io.out(`Blocked item '${id}': ${reason.trim()}`);
  return EXIT.ok;
}

export async function unblockItem(store: Store, id: string, io: CliIo): Promise<number> {
  if (!(await store.unblockItem(id))) {
    io.err(`Item '${id}' is not blocked.`);
    return EXIT.failed;
  }
  io.out(`Unblocked item '${id}'.`);
  return EXIT.ok;
}

/** `items list [--limit N] [--after ID]`: ids on stdout, one a line (for scripts); how to go on on stderr. */
export async function listItems(
  store: Store,
  options: { limit: number; after?: string | undefined },
  cli: string,
  io: CliIo,
): Promise<number> {
  // One more than asked tells whether another page follows.
  const ids = await store.listItemIds({ after: options.after, limit: options.limit + 1 });
  const page = ids.slice(0, options.limit);
  for (const id of page) io.out(id);
  if (page.length === 0) {
    io.err(options.after === undefined ? `No items. Load some with: ${cli} ingest items PATH...` : `No items after '${options.after}'.`);
  } else if (ids.length > options.limit) {
    io.err(
      `More items follow: ${cli} items list --after ${shellWord(page.at(-1)!)}${options.limit === DEFAULT_LIST_LIMIT ? '' : ` --limit ${options.limit}`}`,
    );
  }
  return EXIT.ok;
}

export const DEFAULT_LIST_LIMIT = 100;

/** `items show ID [--format json|xml]`: the package as a client gets it from /items/{id}/aip. */
export async function showItem(store: Store, id: string, format: ItemFormat, cli: string, io: CliIo): Promise<number> {
  const doc = await store.getItemDocument(id, format);
  if (!doc) {
    io.err(`No item '${id}' in the store. See the ids with: ${cli} items list`);
    return EXIT.failed;
  }
  // io.out ends the line; a body that ends in one is printed byte for byte.
  const text = doc.body.toString('utf8');
  io.out(text.endsWith('\n') ? text.slice(0, -1) : text);
  // Shown to the operator all the same; clients get a 403.
  if (doc.blockedReason !== null) io.err(`Item '${id}' is blocked (clients get 403): ${doc.blockedReason}`);
  return EXIT.ok;
}

/** A word as a POSIX shell reads it back: as it is when it is plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
