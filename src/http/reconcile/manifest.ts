/**
 * The service manifest (Reconciliation API 0.2, "Service Manifest") and the HTML preview of
 * an entity ("Preview Service"); docs/reconciliation.md says what each field names.
 */
import { escapeXmlAttr, escapeXmlText } from '../../formats/xmlEscape.js';
import { VERSION } from '../../version.js';
import type { Entity } from './entities.js';
import { MAX_QUERIES } from './requests.js';
import { PROPERTY_BY_ID, TYPES } from './vocabulary.js';

export const PREVIEW_WIDTH = 400;
export const PREVIEW_HEIGHT = 200;

export interface ManifestOptions {
  /** The service's base URL as the client used it, without a trailing slash (`http://host` or `http://host/2`). */
  base: string;
  /** auth.anonymousRead: without it, queries need the key and the manifest says how to send it. */
  anonymousRead: boolean;
  /** web.enabled: entities link to their pages for people. */
  pages: boolean;
}

export function buildManifest(options: ManifestOptions): Record<string, unknown> {
  const service = `${options.base}/reconcile`;
  return {
    versions: ['0.2'],
    name: 'heritage-api: persons, institutions and objects',
    // The preview is the page an id resolves to: the namespace of the ids is its URL.
    identifierSpace: `${service}/preview?id=`,
    schemaSpace: 'http://www.europeana.eu/schemas/edm/',
    serviceVersion: VERSION,
    defaultTypes: TYPES.map((t) => ({ id: t.id, name: t.name })),
    view: { url: `${service}/preview?id={{id}}` },
    preview: { url: `${service}/preview?id={{id}}`, width: PREVIEW_WIDTH, height: PREVIEW_HEIGHT },
    suggest: {
      entity: { service_url: service, service_path: '/suggest/entity' },
      type: { service_url: service, service_path: '/suggest/type' },
      property: { service_url: service, service_path: '/suggest/property' },
    },
    extend: { propose_properties: { service_url: service, service_path: '/properties' }, property_settings: [] },
    batchSize: MAX_QUERIES,
    // The key as the API takes it in the query (docs/api.md "API key"); the manifest itself needs none.
    ...(options.anonymousRead ? {} : { authentication: { type: 'apiKey', name: 'oauth_consumer_key', in: 'query' } }),
  };
}

/** The page of the pages for people (docs/pages.md) that shows the entity, when there is one. */
function pageOf(entity: Entity, base: string): string | undefined {
  if (entity.kind === 'item') return `${base}/item/${encodeURIComponent(entity.id)}`;
  const gnd = /^http:\/\/d-nb\.info\/gnd\/([0-9X-]+)$/.exec(entity.id)?.[1];
  if (entity.kind === 'person' && gnd !== undefined) return `${base}/person/${gnd}`;
  return undefined;
}

const PREVIEW_VALUES: Record<Entity['kind'], string[]> = {
  person: ['dateOfBirth', 'placeOfBirth', 'dateOfDeath', 'placeOfDeath', 'professionOrOccupation'],
  institution: ['sector', 'state', 'website', 'institutionItemCount'],
  item: ['date', 'place', 'provider', 'objectType'],
};

/** A small HTML page about the entity, for an iframe of PREVIEW_WIDTH × PREVIEW_HEIGHT. */
export function previewHtml(entity: Entity, options: ManifestOptions): string {
  const rows = PREVIEW_VALUES[entity.kind]
    .map((p) => [PROPERTY_BY_ID.get(p)!.name, (entity.values[p] ?? []).slice(0, 5).join('; ')] as const)
    .filter(([, v]) => v !== '')
    .map(([name, v]) => `<tr><th>${escapeXmlText(name)}</th><td>${escapeXmlText(v)}</td></tr>`)
    .join('');
  const page = options.pages ? pageOf(entity, options.base) : undefined;
  const title = escapeXmlText(entity.name);
  const heading = page === undefined ? title : `<a href="${escapeXmlAttr(page)}" target="_blank" rel="noopener">${title}</a>`;
  const type = TYPES.find((t) => t.id === entity.kind)!.name;
  return (
    '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>' +
    title +
    '</title><style>body{font:13px/1.4 sans-serif;margin:6px}h1{font-size:15px;margin:0 0 4px}' +
    'p{margin:0 0 4px;color:#555}th{text-align:left;padding-right:8px;vertical-align:top}</style></head><body>' +
    `<h1>${heading}</h1><p>${escapeXmlText(type)} · ${escapeXmlText(entity.id)}</p>` +
    (rows === '' ? '' : `<table>${rows}</table>`) +
    '</body></html>'
  );
}
