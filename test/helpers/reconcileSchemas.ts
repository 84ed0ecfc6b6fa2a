/**
 * The JSON Schemas of the W3C Reconciliation Service API 0.2 (test/reconcile/schemas/,
 * copied unchanged from the specification's repository: see the README there), compiled
 * with Ajv, for the tests of /reconcile (docs/reconciliation.md).
 *
 * The manifest schema refers to Swagger 2.0's security definitions for `authentication`;
 * that schema is the one the npm package swagger-schema-official ships. It is written for
 * JSON Schema draft 4; its `securityDefinitions` part uses nothing that draft 7 reads
 * differently, so that part and the definitions it names are handed to Ajv under the
 * Swagger schema's own id.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

const NAMES = [
  'manifest',
  'reconciliation-query-batch',
  'reconciliation-result-batch',
  'suggest-entities-response',
  'suggest-properties-response',
  'suggest-types-response',
  'data-extension-property-proposal',
  'data-extension-query',
  'data-extension-response',
] as const;
export type ReconcileSchemaName = (typeof NAMES)[number];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- schema documents are read as parsed JSON
type Json = Record<string, any>;

function readSchema(name: string): Json {
  return JSON.parse(readFileSync(new URL(`../reconcile/schemas/${name}.json`, import.meta.url), 'utf8')) as Json;
}

/** Swagger 2.0's securityDefinitions, with every definition it reaches, under the Swagger schema's id. */
function swaggerSecurity(): Json {
  const swagger = createRequire(import.meta.url)('swagger-schema-official/schema.json') as Json;
  const definitions: Json = {};
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/definitions/')) {
        const name = value.slice('#/definitions/'.length);
        if (!(name in definitions)) {
          definitions[name] = swagger.definitions[name];
          visit(definitions[name]);
        }
      } else visit(value);
    }
  };
  definitions.securityDefinitions = swagger.definitions.securityDefinitions;
  visit(definitions.securityDefinitions);
  return { $id: 'http://swagger.io/v2/schema.json', definitions };
}

// The schemas name "http://json-schema.org/schema#" (whatever draft is current) as their
// meta-schema; Ajv knows draft 7 by its own URI, so they are checked against no meta-schema.
const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
addFormats.default(ajv);
ajv.addSchema(readSchema('type'));
ajv.addSchema(swaggerSecurity());
const validators = new Map<ReconcileSchemaName, ValidateFunction>(NAMES.map((name) => [name, ajv.compile(readSchema(name))]));

/** Every problem the schema finds in `value`; [] when it is valid. */
export function reconcileProblems(schema: ReconcileSchemaName, value: unknown): string[] {
  const validate = validators.get(schema)!;
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
