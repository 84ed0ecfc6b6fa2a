/**
 * Hits of an item or person search as the results, home and person pages list them.
 */
import type { EngineAnswer } from '../search/indexHost.js';
import { readableDate } from './fieldValues.js';
import { itemPath, type Frame } from './frame.js';
import { itemView } from './itemView.js';
import { canShow, type MediaSource } from './mediaView.js';
import type { PageDeps } from './pageDeps.js';
import { gndOfPersonId, type PersonView } from './personView.js';

export interface ResultDoc {
  id: string;
  title: string;
  subtitle: string;
  label: string;
  thumbnail: string;
  media: string;
}

export function parseDocs<T>(answer: EngineAnswer): T[] {
  return answer.docs.map((d) => JSON.parse(d) as T);
}

/** Hits for the results and person pages: a thumbnail only where it can be shown (./mediaView.ts), else the placeholder. */
export async function hitsOf(media: MediaSource, f: Frame, docs: readonly ResultDoc[]) {
  const out = [];
  for (const d of docs) {
    const thumbnail = thumbnailOf(d.thumbnail);
    out.push({ ...d, href: f.link(itemPath(d.id)), thumbnail: (await canShow(media, thumbnail)) ? thumbnail : '' });
  }
  return out;
}

/** The provider of each hit, from its package (the result doc has none). */
export async function providersOf(store: PageDeps['store'], ids: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const id of ids) {
    const doc = await store.getItemDocument(id, 'json');
    if (doc === undefined || doc.blockedReason !== null) continue;
    const name = itemView(id, JSON.parse(doc.body.toString('utf8'))).provider?.name;
    if (name !== undefined) out[id] = name;
  }
  return out;
}

export function personLink(f: Frame, p: PersonView) {
  const gnd = gndOfPersonId(p.id);
  return {
    ...p,
    born: readableDate(p.born, f.lang),
    died: readableDate(p.died, f.lang),
    href: gnd === undefined ? undefined : f.link(`/person/${encodeURIComponent(gnd)}`),
  };
}

function thumbnailOf(path: string): string {
  return path.startsWith('/binary/') ? path : '';
}
