/**
 * Hits of an item or person search as the results, home and person pages list them.
 */
import { LruCache } from '../lruCache.js';
import type { EngineAnswer } from '../search/indexHost.js';
import { readableDate } from './fieldValues.js';
import { itemPath, type Frame } from './frame.js';
import { itemView } from './itemView.js';
import { allowedOrigin, canShow, canShowLocally, type MediaSource } from './mediaView.js';
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

/**
 * Hits for the results and person pages: a thumbnail only where it can be shown (./mediaView.ts),
 * else the placeholder. `store` reads the package of a hit whose thumbnail the media folder does
 * not hold: a record built from EDM shows it from its origin (when media.origins allows it), never
 * from media.baseUrl.
 */
export async function hitsOf(media: MediaSource, f: Frame, docs: readonly ResultDoc[], store?: PageDeps['store']) {
  const out = [];
  for (const d of docs) {
    const thumbnail = thumbnailOf(d.thumbnail);
    out.push({ ...d, href: f.link(itemPath(d.id)), thumbnail: await shownThumbnail(media, d.id, thumbnail, store) });
  }
  return out;
}

async function shownThumbnail(media: MediaSource, id: string, thumbnail: string, store: PageDeps['store'] | undefined): Promise<string> {
  if (thumbnail === '' || (await canShowLocally(media, thumbnail))) return thumbnail;
  if (store === undefined || (media.baseUrl === '' && media.origins.length === 0))
    return (await canShow(media, thumbnail)) ? thumbnail : '';
  const doc = await store.getItemDocument(id, 'json');
  if (doc === undefined || doc.blockedReason !== null) return '';
  const view = itemView(id, JSON.parse(doc.body.toString('utf8')));
  const image = view.images.find((i) => i.renditions.some((r) => r.href === thumbnail)) ?? view.images[0];
  // A package without an image of that path: its preview's own picture, where the path names one.
  if (image === undefined) return media.baseUrl !== '' && /\.(jpe?g|png|gif|webp|avif)$/i.test(thumbnail) ? thumbnail : '';
  if (image.origin === '') return media.baseUrl !== '' ? thumbnail : '';
  return allowedOrigin(media, image.origin) ? image.origin : '';
}

/**
 * The provider's name in each package version (`<id> <ETag>`: a new version has a new ETag, so
 * an entry never goes stale). Parsing a hit's package (20 KB of JSON on average at the bench's
 * 1.1 M items) to read one name cost 0.3–0.5 ms a hit, the larger part of a results page's
 * time (docs/benchmarks.md); the name itself is a few bytes. "" for a package naming none.
 */
const providerNames = new LruCache<string>(4 * 2 ** 20, (name) => 2 * name.length + 160);

/** The provider of each hit, from its package (the result doc has none). */
export async function providersOf(store: PageDeps['store'], ids: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const id of ids) {
    // The head names the version without reading the package (20 KB a hit of fresh memory,
    // which made the HTTP process collect its heap every few seconds under load: the page
    // rows' p99, docs/benchmarks.md "Since that run: no package read for a known provider").
    const head = await store.getItemHead(id);
    if (head === undefined || head.blockedReason !== null) continue;
    let name = providerNames.get(`${id} ${head.etag}`);
    if (name === undefined) {
      const doc = await store.getItemDocument(id, 'json');
      if (doc === undefined || doc.blockedReason !== null) continue;
      name = itemView(id, JSON.parse(doc.body.toString('utf8'))).provider?.name ?? '';
      // keyed by the version read, which a change between the two reads may have made newer
      providerNames.set(`${id} ${doc.etag}`, name);
    }
    if (name !== '') out[id] = name;
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
