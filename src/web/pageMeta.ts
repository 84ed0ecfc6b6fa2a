/**
 * What search engines and link previews read in a page's head (docs/pages.md "Found by search
 * engines"): a description, the canonical URL, Open Graph tags (https://ogp.me) and schema.org
 * JSON-LD (a CreativeWork for an item, a Person for a person). Pure: view models in, a PageMeta
 * out; the layout writes it (./templates.ts).
 */
import type { ItemView } from './itemView.js';
import type { PersonView } from './personView.js';

export interface PageMeta {
  /** `<meta name="description">` and og:description. */
  description: string;
  /** `<link rel="canonical">` and og:url: absolute when the request's origin is known. */
  canonical: string;
  /** og:type */
  type: 'article' | 'profile';
  /** og:title */
  title: string;
  /** og:image: an absolute URL, when the item has an image. */
  image: string | undefined;
  /** The JSON-LD, escaped for a `<script>` element (see scriptJson). */
  jsonLd: string;
}

/** Longest description written: search engines show about 160 characters. */
const DESCRIPTION_LENGTH = 200;

function clip(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= DESCRIPTION_LENGTH ? t : `${t.slice(0, DESCRIPTION_LENGTH - 1).trimEnd()}…`;
}

/**
 * JSON for the inside of a `<script>` element: `<`, `>` and `&` as \u escapes, so that no
 * value (a title holding `</script>`) can end the element or open a comment in it (HTML,
 * "Restrictions for contents of script elements"), and U+2028/2029 as escapes too.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Drops the keys whose value is undefined or an empty list. */
function compact(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)));
}

export interface ItemMetaInput {
  item: ItemView;
  /** The page's path, `/item/{id}`. */
  path: string;
  /** `https://host` or '' when unknown (then URLs are relative). */
  origin: string;
  /** The parent in the hierarchy, if any: its page path and label. */
  parent: { path: string; label: string } | undefined;
}

export function itemMeta({ item, path, origin, parent }: ItemMetaInput): PageMeta {
  const canonical = `${origin}${path}`;
  const images = item.images.map((m) => `${origin}${m.renditions[0]!.href}`);
  const thumbnail = item.thumbnail === '' ? undefined : `${origin}${item.thumbnail}`;
  const image = images[0] ?? thumbnail;
  const fields = item.fields.map((f) => `${f.name}: ${f.values.join(', ')}`).join('; ');
  const description = clip(
    [item.subtitle, fields, item.provider?.name].filter((s): s is string => s !== undefined && s.trim() !== '').join(' · ') || item.title,
  );
  const jsonLd = compact({
    '@context': 'https://schema.org',
    '@type': 'CreativeWork',
    '@id': canonical,
    url: canonical,
    identifier: item.id,
    name: item.title,
    alternativeHeadline: item.subtitle === '' ? undefined : item.subtitle,
    description,
    image: images.length > 0 ? images : thumbnail === undefined ? undefined : [thumbnail],
    thumbnailUrl: thumbnail,
    license: item.license?.url === '' ? undefined : item.license?.url,
    provider:
      item.provider === undefined
        ? undefined
        : compact({ '@type': 'Organization', name: item.provider.name, url: item.provider.url === '' ? undefined : item.provider.url }),
    isPartOf: parent === undefined ? undefined : { '@type': 'CreativeWork', '@id': `${origin}${parent.path}`, name: parent.label },
    sameAs: item.origin === '' ? undefined : item.origin,
  });
  return { description, canonical, type: 'article', title: item.title, image, jsonLd: scriptJson(jsonLd) };
}

export interface PersonMetaInput {
  person: PersonView;
  /** The page's path, `/person/{gnd}`. */
  path: string;
  origin: string;
  /** The GND number. */
  gnd: string;
}

export function personMeta({ person, path, origin, gnd }: PersonMetaInput): PageMeta {
  const canonical = `${origin}${path}`;
  const life = person.born === '' && person.died === '' ? '' : `${person.born || '?'} – ${person.died}`.trim();
  const description = clip([person.name, life, person.occupations.join(', ')].filter((s) => s !== '').join(' · '));
  const place = (name: string) => ({ '@type': 'Place', name });
  const jsonLd = compact({
    '@context': 'https://schema.org',
    '@type': 'Person',
    '@id': canonical,
    url: canonical,
    identifier: gnd,
    name: person.name,
    alternateName: person.variantNames,
    description,
    birthDate: person.born === '' ? undefined : person.born,
    deathDate: person.died === '' ? undefined : person.died,
    birthPlace: person.placeOfBirth[0] === undefined ? undefined : place(person.placeOfBirth[0]),
    deathPlace: person.placeOfDeath[0] === undefined ? undefined : place(person.placeOfDeath[0]),
    hasOccupation: person.occupations.map((name) => ({ '@type': 'Occupation', name })),
    sameAs: person.gndLink === '' ? undefined : [person.gndLink],
  });
  return { description, canonical, type: 'profile', title: person.name, image: undefined, jsonLd: scriptJson(jsonLd) };
}
