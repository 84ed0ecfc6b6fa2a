/**
 * Whether an item may be served: 404 for an unknown item, 403 for a blocked
 * one (spec section 7, docs/decisions.md "Blocked items"), as the package route
 * decides it (./packageAnswers.ts), for every operation on one item.
 */
import { ApiError } from '../errors.js';
import type { ItemHead } from '../store/Store.js';

export function servable<T extends ItemHead>(id: string, item: T | undefined): T {
  if (!item) throw ApiError.of('itemNotFound', id);
  if (item.blockedReason !== null) throw ApiError.of('itemBlocked', id, item.blockedReason);
  return item;
}
