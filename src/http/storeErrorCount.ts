/**
 * The store as the server uses it, counting the operations that fail
 * (`heritage_store_errors_total`, src/http/metrics.ts; docs/api.md "Health and metrics").
 *
 * A plain forwarding object, not a Proxy: a Proxy's trap costs far more per
 * call than a forwarding function, and the cached answers call the store on
 * every request. A search's own errors (a bad query, a limit, its budget)
 * are the client's or the search's, not the store's, and are not counted: by their code
 * (src/errorCodes.ts, `blame`).
 */
import { ERROR_CODES, errorCodeOf } from '../errorCodes.js';
import type { Store } from '../store/Store.js';

const notTheStores = (e: unknown) => {
  const code = errorCodeOf(e);
  return code !== undefined && ERROR_CODES[code].blame !== 'store';
};

/** Every method of the store (own and inherited), each calling `onError(name)` before it throws or rejects again. */
export function countingStoreErrors(store: Store, onError: (operation: string) => void): Store {
  const counted: Record<string, unknown> = {};
  const names = new Set<string>();
  for (let o: object | null = store; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const name of Object.getOwnPropertyNames(o)) if (name !== 'constructor') names.add(name);
  }
  const target = store as unknown as Record<string, unknown>;
  for (const name of names) {
    const fn = target[name];
    if (typeof fn !== 'function') continue;
    const count = (e: unknown) => {
      if (!notTheStores(e)) onError(name);
      throw e;
    };
    // A backend may hand over the same promise again (SQLite's dataVersion() while nothing
    // changes): it gets the same counted one, with nothing allocated per request.
    let lastIn: unknown;
    let lastOut: unknown;
    counted[name] = (...args: unknown[]) => {
      let result: unknown;
      try {
        result = (fn as (...a: unknown[]) => unknown).apply(store, args);
      } catch (e) {
        count(e);
      }
      // The store's operations answer with promises (Store.ts): their failures are rejections.
      if (!(result instanceof Promise)) return result;
      if (result !== lastIn) {
        lastIn = result;
        lastOut = result.catch(count);
      }
      return lastOut;
    };
  }
  return counted as unknown as Store;
}
