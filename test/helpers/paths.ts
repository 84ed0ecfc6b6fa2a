/** The real records shipped with the project (fixtures/README.md says where they come from). */
import { fileURLToPath } from 'node:url';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
export const CORTEX_DIR = `${FIXTURES}items/cortex/`;
export const CHAPTER_ID = 'NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR';
export const OTHER_CORTEX_ID = '4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22';
export const GOETHE_ID = 'TNPFDKO2VDGBZ72RWC6RKDNZYZQZP3XK';
export const HOPE_DIR = `${FIXTURES}items/edm/hope-combat/`;
