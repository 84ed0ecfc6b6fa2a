/**
 * Package JSON (one package, or an array of packages; spec 2.4): read keeping repeated
 * keys, then turned into cortex XML, which becomes canonical, so that both representations
 * of an item say the same thing. An input format of `ingest items` (./itemFormats.ts).
 */
import { jsonToCortex } from '../../formats/jsonToCortex.js';
import { JsonSyntaxError, parsePackageJsonRecords } from '../../formats/packageJson.js';
import { RecordError } from '../../formats/recordError.js';
import type { RecordLimits } from '../../formats/recordLimits.js';
import { parseXml } from '../../formats/xmlTree.js';
import type { PreparedItem } from '../../store/Store.js';
import { firstCharacter, fromXml } from './cortexXmlFormat.js';
import type { DocumentFormat, ItemReadResult } from './itemFormats.js';
import { describeReadError } from './readProblem.js';

function fromPackageJson(pkg: unknown): PreparedItem {
  if (typeof pkg !== 'object' || pkg === null || Array.isArray(pkg)) {
    throw new RecordError('a package must be a JSON object with the parts of spec 2.4 (properties, edm, ...)');
  }
  const xml = jsonToCortex(pkg as Record<string, unknown>);
  return fromXml(xml, parseXml(xml));
}

export const packageJsonFormat: DocumentFormat = {
  name: 'package-json',
  sniff: (head) => {
    const first = firstCharacter(head);
    return first === '{' || first === '[';
  },
  read: 'document',
  readDocument(text: string, limits: RecordLimits): ItemReadResult[] {
    let parsed: unknown;
    let refused: Map<number, string>;
    try {
      ({ value: parsed, refused } = parsePackageJsonRecords(text, limits));
    } catch (e) {
      return [
        {
          kind: 'error',
          reason: describeReadError(e),
          position: e instanceof JsonSyntaxError ? `line ${e.line}, column ${e.column}` : 'document',
        },
      ];
    }
    const packages = Array.isArray(parsed) ? parsed : [parsed];
    return packages.map((pkg, i) => {
      const position = Array.isArray(parsed) ? `record ${i + 1}` : 'document';
      const tooBig = refused.get(i);
      if (tooBig !== undefined) return { kind: 'error', reason: tooBig, position };
      try {
        return { kind: 'item', item: fromPackageJson(pkg), position };
      } catch (e) {
        return { kind: 'error', reason: describeReadError(e), position };
      }
    });
  },
};
