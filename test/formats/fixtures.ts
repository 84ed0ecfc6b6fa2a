// Reading the real item packages used by the tests of src/formats/ (see fixtures/README.md).

import { readFileSync } from 'node:fs';

export const CORTEX_XML_IDS = ['4XUDMRWXBMC7O3FPLATAK2HLCMLBBO22', 'NF42ZIDML4FWIBPEUEZDW6QDBSJIV7VR'] as const;
export const PACKAGE_JSON_FILES = ['goethe.json', 'bare_id.json', 'multi_uri.json'] as const;

export function readFixture(name: string): string {
  return readFileSync(new URL(`../../fixtures/items/cortex/${name}`, import.meta.url), 'utf8');
}
