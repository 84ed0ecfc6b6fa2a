/**
 * What a reader of item packages says about a record it cannot read: the reason an error
 * result gives (./cortexXmlFormat.ts, ./packageJsonFormat.ts).
 */
import { RecordError } from '../../formats/recordError.js';
import { JsonLimitError, JsonSyntaxError } from '../../formats/packageJson.js';
import { XmlSyntaxError, XmlTooDeepError } from '../../formats/xmlTree.js';

/** The reason for a record that cannot be read; anything else is a bug of ours and is thrown on. */
export function describeReadError(e: unknown): string {
  if (e instanceof XmlSyntaxError) return `not well-formed XML: ${e.reason}`;
  if (e instanceof JsonSyntaxError) return `not valid JSON: ${e.reason}`;
  if (e instanceof RecordError || e instanceof XmlTooDeepError || e instanceof JsonLimitError) return e.message;
  throw e;
}
