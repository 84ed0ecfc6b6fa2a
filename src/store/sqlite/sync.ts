/**
 * The synchronous form of a part of the Store (src/store/Store.ts): what this backend's
 * classes implement inside, better-sqlite3 being synchronous. SqliteStore.ts hands their
 * answers over as the Store's promises.
 */
export type Sync<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : T[K];
};
