/**
 * Checks a manifest against test/fixtures/iiif-presentation-3-structure.schema.json
 * (structural rules written from the IIIF Presentation 3.0 specification, not the
 * official IIIF schema: no npm package ships that one), plus the rules between
 * resources a JSON Schema cannot say: ids unique (§2.2 "the same id is the same
 * resource"), `start` names a canvas of the manifest (§3.4), each painting
 * annotation targets the canvas it is in (§5.8).
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';

const SCHEMA = JSON.parse(readFileSync(new URL('../fixtures/iiif-presentation-3-structure.schema.json', import.meta.url), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: true, strictRequired: false }).compile(SCHEMA);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- IIIF bodies are read as parsed JSON; the schema test types them
type Json = Record<string, any>;

/** Every problem found; [] for a valid manifest. */
export function iiifProblems(manifest: unknown): string[] {
  if (!validate(manifest)) return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
  const m = manifest as Json;
  const problems: string[] = [];
  const ids = new Set<string>();
  const unique = (id: string) => {
    if (ids.has(id)) problems.push(`id ${id} is used twice`);
    ids.add(id);
  };
  unique(m.id);
  for (const canvas of m.items as Json[]) {
    unique(canvas.id);
    for (const page of (canvas.items ?? []) as Json[]) {
      unique(page.id);
      for (const annotation of (page.items ?? []) as Json[]) {
        unique(annotation.id);
        if (annotation.target !== canvas.id)
          problems.push(`annotation ${annotation.id} targets ${annotation.target}, not its canvas ${canvas.id}`);
      }
    }
  }
  if (m.start !== undefined && !(m.items as Json[]).some((c) => c.id === m.start.id))
    problems.push(`start ${m.start.id} is not a canvas of the manifest`);
  return problems;
}
