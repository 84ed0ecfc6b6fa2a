/**
 * The licence facets' spelling and groups (src/domain/licenseGroups.ts, docs/search.md
 * "Licences"): the group derived from a URI is the group the DDB wrote beside it in every
 * real package that names one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalLicense, licenseGroupOf } from '../../src/domain/licenseGroups.js';
import { itemFieldsFromJson } from '../../src/formats/itemFields.js';
import { cortexPackages } from '../search/itemFixtures.js';

test('a licence URI has one spelling in the facet, whatever its scheme, deed page or trailing slash', () => {
  const table: Array<[string, string]> = [
    ['http://creativecommons.org/licenses/by-nc-sa/4.0/', 'http://creativecommons.org/licenses/by-nc-sa/4.0/'],
    ['https://creativecommons.org/licenses/by-nc-sa/4.0/deed.de', 'http://creativecommons.org/licenses/by-nc-sa/4.0/'],
    ['  https://CreativeCommons.org/publicdomain/zero/1.0/legalcode ', 'http://creativecommons.org/publicdomain/zero/1.0/'],
    ['https://rightsstatements.org/vocab/InC/1.0', 'http://rightsstatements.org/vocab/InC/1.0/'],
    ['http://www.europeana.eu/rights/rr-f/', 'http://www.europeana.eu/rights/rr-f/'],
    ['https://example.org/our-licence?v=2', 'https://example.org/our-licence?v=2'],
    ['', ''],
  ];
  for (const [given, spelt] of table) assert.equal(canonicalLicense(given), spelt, given);
});

test('each licence URI falls into one DDB group: free, reuse with conditions, reuse only with permission', () => {
  const table: Array<[string, string]> = [
    ['http://creativecommons.org/publicdomain/mark/1.0/', 'rights_001'],
    ['https://creativecommons.org/publicdomain/zero/1.0/deed.en', 'rights_001'],
    ['http://creativecommons.org/licenses/by/4.0/', 'rights_002'],
    ['http://creativecommons.org/licenses/by-sa/3.0/de/', 'rights_002'],
    ['http://creativecommons.org/licenses/by-nd/4.0/', 'rights_002'],
    ['http://creativecommons.org/licenses/by-nc-nd/3.0/', 'rights_002'],
    ['http://rightsstatements.org/vocab/NoC-NC/1.0/', 'rights_002'],
    ['http://www.europeana.eu/rights/out-of-copyright-non-commercial/', 'rights_002'],
    ['http://rightsstatements.org/vocab/InC/1.0/', 'rights_003'],
    ['http://rightsstatements.org/vocab/InC-EDU/1.0/', 'rights_003'],
    ['http://rightsstatements.org/vocab/CNE/1.0/', 'rights_003'],
    ['http://www.europeana.eu/rights/rr-f/', 'rights_003'],
    ['http://www.deutsche-digitale-bibliothek.de/lizenzen/rv-fz/', 'rights_003'],
    ['https://example.org/our-licence', 'rights_003'],
  ];
  for (const [uri, group] of table) assert.equal(licenseGroupOf(uri), group, uri);
});

test('the group of the URI is the group the DDB wrote beside it in the real packages', () => {
  let named = 0;
  for (const p of cortexPackages()) {
    const given =
      /"license_group"[^}]*?"(rights_\d{3})"/.exec(p.item.json)?.[1] ??
      /binary[^\]]*"license_group":"(rights_\d{3})"/.exec(p.item.json)?.[1];
    if (given === undefined) continue;
    named++;
    const license = itemFieldsFromJson(p.item.json, p.item.id).facets['license']?.[0];
    assert.ok(license !== undefined, p.source);
    assert.equal(licenseGroupOf(license), given, `${p.source}: ${license}`);
  }
  assert.ok(named >= 4, `packages naming a group: ${named}`);
});
