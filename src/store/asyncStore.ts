/**
 * A synchronous Store (SQLite) as an AsyncStore, so that code written for the
 * asynchronous seam (`heritage-api copy`, the store tests of both backends) runs on
 * either backend. A failure is a rejected promise, as a networked backend's is.
 */
import type { AsyncStore, Store } from './Store.js';

export function asyncStore(store: Store): AsyncStore {
  const wrap =
    <A extends unknown[], R>(run: (...args: A) => R) =>
    async (...args: A): Promise<R> =>
      run(...args);
  return {
    upsertItems: wrap((items) => store.upsertItems(items)),
    applyItemChanges: wrap((changes, harvest) => store.applyItemChanges(changes, harvest)),
    getHarvestState: wrap((source) => store.getHarvestState(source)),
    getItemDocument: wrap((id, format) => store.getItemDocument(id, format)),
    getItemHead: wrap((id) => store.getItemHead(id)),
    getAncestry: wrap((id) => store.getAncestry(id)),
    getChildren: wrap((id, offset, rows) => store.getChildren(id, offset, rows)),
    findCycles: wrap((ids) => store.findCycles(ids)),
    blockItem: wrap((id, reason) => store.blockItem(id, reason)),
    unblockItem: wrap((id) => store.unblockItem(id)),
    countItems: wrap(() => store.countItems()),
    listItemIds: wrap((options) => store.listItemIds(options)),
    listProviders: wrap(() => store.listProviders()),
    upsertPersons: wrap((persons) => store.upsertPersons(persons)),
    countPersons: wrap(() => store.countPersons()),
    createKey: wrap((name, hash) => store.createKey(name, hash)),
    listKeys: wrap(() => store.listKeys()),
    revokeKey: wrap((name) => store.revokeKey(name)),
    findActiveKey: wrap((hash) => store.findActiveKey(hash)),
    markKeyUsed: wrap((name, at) => store.markKeyUsed(name, at)),
    recordLoad: wrap((run) => store.recordLoad(run)),
    listLoads: wrap(() => store.listLoads()),
    listHarvests: wrap(() => store.listHarvests()),
    readSearchChanges: wrap((kind, after, limit) => store.readSearchChanges(kind, after, limit)),
    readSearchBodies: wrap((kind, ids) => store.readSearchBodies(kind, ids)),
    dataVersion: wrap(() => store.dataVersion()),
    reopenSpec: wrap(() => store.reopenSpec()),
    close: wrap(() => store.close()),
  };
}
