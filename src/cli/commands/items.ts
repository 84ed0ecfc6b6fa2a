/**
 * `heritage-api items block ID --reason TEXT` and `items unblock ID`:
 * a blocked item answers 403 with the reason (spec section 7).
 */
import type { Store } from '../../store/Store.js';
import { EXIT, type CliIo } from '../io.js';

export function blockItem(store: Store, id: string, reason: string, io: CliIo): number {
  if (reason.trim() === '') {
    io.err('Give a reason with --reason TEXT; it is shown to clients in the 403 message.');
    return EXIT.failed;
  }
  if (!store.blockItem(id, reason.trim())) {
    io.err(`No item '${id}' in the store. Load it first, or check the id.`);
    return EXIT.failed;
  }
  io.out(`Blocked item '${id}': ${reason.trim()}`);
  return EXIT.ok;
}

export function unblockItem(store: Store, id: string, io: CliIo): number {
  if (!store.unblockItem(id)) {
    io.err(`Item '${id}' is not blocked.`);
    return EXIT.failed;
  }
  io.out(`Unblocked item '${id}'.`);
  return EXIT.ok;
}
