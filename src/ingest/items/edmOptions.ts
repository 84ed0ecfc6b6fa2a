/**
 * The EDM build options of one run from the config: the ingest date, and
 * the operator's providers file (ingest.providersFile), read and checked
 * before anything is loaded.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Config } from '../../config.js';
import { UsageError } from '../../errors.js';
import { readProvidersFile } from '../edm/providers.js';
import type { EdmItemOptions } from './edmItems.js';

export function edmItemOptions(config: Config, now = new Date()): EdmItemOptions {
  const file = config.ingest.providersFile;
  if (file === '') return { ingestDate: now, providersFingerprint: '' };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`Cannot read the providers file '${file}' (--providers, ingest.providersFile).`);
  }
  try {
    const providers = readProvidersFile(text);
    return { ingestDate: now, providers, providersFingerprint: createHash('sha256').update(text).digest('base64url') };
  } catch (e) {
    throw new UsageError(`The providers file '${file}' is not valid: ${(e as Error).message}`);
  }
}
