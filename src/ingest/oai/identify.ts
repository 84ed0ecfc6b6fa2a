/**
 * The repository's datestamp granularity from Identify (OAI-PMH 2.0 section
 * 4.2). A harvester must not send `from`/`until` finer than this (section
 * 3.3.1: the repository answers badArgument), so an incremental harvest saves
 * its high-water mark in this granularity.
 */
import type { Granularity } from './datestamp.js';
import { HarvestHttpError, OaiError } from './errors.js';
import type { ClientOptions } from './httpGet.js';
import { oaiExchange } from './oaiExchange.js';
import { oaiUrl } from './oaiRequest.js';

export type { Granularity } from './datestamp.js';

export async function identifyGranularity(baseUrl: string, options: ClientOptions = {}): Promise<Granularity> {
  const url = oaiUrl(baseUrl, [['verb', 'Identify']]);
  const answer = await oaiExchange(url, 'Identify', options);
  const error = answer.errors[0];
  if (error) throw new OaiError(error.code || '(no code)', error.message, url);
  const granularity = answer.verbElement?.['granularity'];
  if (granularity === 'YYYY-MM-DD' || granularity === 'YYYY-MM-DDThh:mm:ssZ') return granularity;
  throw new HarvestHttpError(
    `${url} gave no valid <granularity> in its Identify response (got ${JSON.stringify(granularity ?? null)}; OAI-PMH 2.0 section 4.2).`,
    { url, attempts: answer.attempts, status: answer.status },
  );
}
