/**
 * The JSON-LD context line of a lobid bulk file: not a bad record, but one that holds no
 * entity, so it is skipped (./personFormats.ts).
 */
import type { PersonRecordFormat } from './personFormats.js';

/** A record holding only "@context". */
export const jsonLdContextFormat: PersonRecordFormat = {
  name: 'context',
  sniff: (rec) => {
    const keys = Object.keys(rec);
    return keys.length === 1 && keys[0] === '@context';
  },
  read: () => ({ kind: 'skipped', entityType: '@context' }),
};
