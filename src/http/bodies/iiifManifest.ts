/**
 * An item package (its JSON form, spec 2.4) as a IIIF Presentation 3.0
 * manifest (https://iiif.io/api/presentation/3.0/; docs/api.md "GET /items/{id}/iiif").
 * Pure: what is read from the media directory comes in as an argument.
 *
 * - One Canvas per binary position, in position order. The real packages list
 *   each position in several variants (full, mvpr, list, grid, mvth); a canvas
 *   paints the largest one the media directory holds, else the largest listed.
 * - `start` is the primary binary's canvas; `thumbnail` its smallest variant.
 * - `label` and `summary` from the view's title and subtitle, `metadata` from
 *   its display fields; `rights` from the license when it is a Creative Commons
 *   or RightsStatements.org URI (the values §3.3.1 allows), the license itself
 *   also as a metadata entry; `requiredStatement` from the rights and credit
 *   lines of the view and of the primary binary; `provider` the institution;
 *   `homepage` the provider's page about the object (the view's origin);
 *   `seeAlso` the package; `partOf` the Collection of the item's parent (docs/iiif.md).
 * - Canvas size: the image's, when known, else DEFAULT_CANVAS (docs/api.md).
 */
import { extensionOfMimeType } from '../../domain/mediaTypes.js';
import type { ImageSize } from '../../media/mediaDirectory.js';

export const IIIF_PRESENTATION_CONTEXT = 'http://iiif.io/api/presentation/3/context.json';

/** Size of a canvas whose image is not in the media directory (or is not an image). */
export const DEFAULT_CANVAS: Readonly<ImageSize> = { width: 1000, height: 1000 };

/** Variants of the real packages, largest first: the one a canvas paints. */
const PAINTING_ORDER = ['full', 'mvpr', 'list', 'grid', 'mvth'];

type Json = Record<string, unknown>;
type LanguageMap = Record<string, string[]>;

export interface PackageBinary {
  position: number;
  primary: boolean;
  variant: string;
  /** `/binary/<item-id>/<variant>/<n>.<ext>` */
  path: string;
  mimetype: string;
  name: string;
  /** name2 of the real packages: the credit line ("Foto: ..."). */
  credit: string;
  /** name3: the rights line ("© ..."). */
  rights: string;
}

/** The binaries of one position, in the order a canvas prefers them. */
export interface CanvasSource {
  position: number;
  primary: boolean;
  variants: PackageBinary[];
}

export interface ManifestInput {
  itemId: string;
  /** The package in its JSON form. */
  pkg: unknown;
  /** Absolute URL of the manifest: its `id`, and the base of its canvases' ids. */
  manifestUrl: string;
  /** Absolute URL of the service root (no trailing slash): binaries and the package are under it. */
  serviceUrl: string;
  /**
   * The binary paths the media directory holds, each with the image's size, or
   * null when it is not an image whose header could be read.
   */
  media: ReadonlyMap<string, ImageSize | null>;
  /** The Collection of the item's parent (docs/iiif.md "Collections"), when the store holds the parent. */
  partOf?: { id: string; label: string } | undefined;
}

const asArray = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/**
 * A property of the package: an attribute (`@name`, the 2014 packages) or a child
 * element of the same name (the newer generation: bare_id.json, multi_uri.json).
 */
const field = (o: unknown, key: string): unknown => (isObject(o) ? (o[`@${key}`] ?? o[key]) : undefined);

/** Text of a JSON-form value: a string, the `$` of an element with attributes, or a newer value's `content`. */
function text(v: unknown): string {
  if (typeof v === 'string') return v.trim();
  const inner = isObject(v) ? (v.$ ?? v.content) : undefined;
  return typeof inner === 'string' ? inner.trim() : '';
}

const isHttpUrl = (s: string): boolean => /^https?:\/\/[^\s/?#]+[^\s]*$/.test(s);

/** Markup that stands inside a line of text; other tags separate words. */
const INLINE_TAG = /^<\/?(a|abbr|b|em|i|small|span|strong|sub|sup|u)\b/i;

/**
 * Package values are text, but some carry markup (an <a> in museum-digital's
 * "Verwandtes Objekt", in the Deutsche Fotothek's rights line). IIIF clients
 * read a value that starts with '<' and ends with '>' as HTML (§4.4): we keep
 * the text of the markup, never the markup, and never hand out such a value.
 */
function plain(s: string): string {
  const text = s
    .replace(/<\/?[A-Za-z][^<>]*>/g, (tag) => (INLINE_TAG.test(tag) ? '' : ' '))
    .replace(/\s+/g, ' ')
    .trim();
  return text.startsWith('<') && text.endsWith('>') ? ` ${text}` : text;
}

/** Callers pass values that are not empty as plain text. */
const none = (...values: string[]): LanguageMap => ({ none: values.map(plain).filter((v) => v !== '') });

export function packageBinaries(pkg: unknown): PackageBinary[] {
  const out: PackageBinary[] = [];
  for (const b of asArray(field(field(pkg, 'binaries'), 'binary'))) {
    const position = Number(text(field(b, 'position')));
    const mimetype = text(field(b, 'mimetype')) || 'application/octet-stream';
    const ref = text(field(b, 'ref'));
    // The newer packages name a binary by a UUID, served by the real service at /binary/<uuid>,
    // where "any file extension ... is ignored" (OpenAPI 6.8): we add the MIME type's.
    const path = text(field(b, 'path')) || (ref === '' ? '' : `/binary/${ref}.${extensionOfMimeType(mimetype)}`);
    if (!path.startsWith('/binary/') || !Number.isInteger(position)) continue;
    out.push({
      position,
      primary: text(field(b, 'primary')) === 'true',
      variant: text(field(b, 'category')),
      path,
      mimetype,
      name: text(field(b, 'name')),
      credit: text(field(b, 'name2')),
      rights: text(field(b, 'name3')),
    });
  }
  return out;
}

const rank = (variant: string): number => {
  const i = PAINTING_ORDER.indexOf(variant);
  return i === -1 ? PAINTING_ORDER.length : i;
};

/** Binaries grouped by position, in position order; each group largest variant first. */
export function canvasSources(binaries: readonly PackageBinary[]): CanvasSource[] {
  const byPosition = new Map<number, PackageBinary[]>();
  for (const b of binaries) {
    const group = byPosition.get(b.position);
    if (group) group.push(b);
    else byPosition.set(b.position, [b]);
  }
  return [...byPosition.entries()]
    .sort(([a], [b]) => a - b)
    .map(([position, variants]) => ({
      position,
      primary: variants.some((v) => v.primary),
      variants: [...variants].sort((a, b) => rank(a.variant) - rank(b.variant)),
    }));
}

/** The content type of §3.2 for a MIME type. */
function resourceType(mimetype: string): string {
  const [major] = mimetype.split('/');
  if (major === 'image') return 'Image';
  if (major === 'video') return 'Video';
  if (major === 'audio') return 'Sound';
  if (major === 'model') return 'Model';
  if (major === 'text' || mimetype === 'application/pdf') return 'Text';
  return 'Dataset';
}

/**
 * `rights` takes only Creative Commons and RightsStatements.org URIs (§3.3.1), in
 * their http form; the packages sometimes carry https or a `deed.de` page.
 */
function rightsUri(license: string): string | undefined {
  const m =
    /^https?:\/\/((?:creativecommons\.org\/(?:licenses|publicdomain)|rightsstatements\.org\/vocab)\/[^\s?#]*?)(?:deed\.[a-z-]+)?$/i.exec(
      license.trim(),
    );
  if (!m) return undefined;
  const path = m[1]!;
  return `http://${path.endsWith('/') ? path : `${path}/`}`;
}

function unique(values: string[]): string[] {
  return [...new Set(values.filter((v) => v !== ''))];
}

function metadataOf(item: unknown): Array<{ label: LanguageMap; value: LanguageMap }> {
  const entries: Array<{ label: LanguageMap; value: LanguageMap }> = [];
  for (const group of asArray(field(item, 'fields'))) {
    if (text(field(group, 'usage')) !== 'display') continue;
    for (const f of asArray(field(group, 'field'))) {
      const name = plain(text(field(f, 'name')));
      const values = asArray(field(f, 'value'))
        .map((v) => plain(text(v)))
        .filter((v) => v !== '');
      if (name !== '' && values.length > 0) entries.push({ label: none(name), value: none(...values) });
    }
  }
  return entries;
}

function providerOf(item: unknown, pkg: unknown, manifestUrl: string): Json | undefined {
  const institution = field(item, 'institution');
  const info = field(pkg, 'provider-info');
  const name = plain(text(field(institution, 'name')) || text(field(info, 'provider-name')));
  if (name === '') return undefined;
  const url = [text(field(institution, 'url')), text(field(info, 'provider-uri'))].find(isHttpUrl);
  const logo = [text(field(institution, 'logo')), text(field(info, 'provider-logo'))].find(isHttpUrl);
  return {
    id: url ?? `${manifestUrl}#provider`,
    type: 'Agent',
    label: none(name),
    ...(url ? { homepage: [{ id: url, type: 'Text', label: none(name), format: 'text/html' }] } : {}),
    ...(logo ? { logo: [{ id: logo, type: 'Image' }] } : {}),
  };
}

export function buildManifest(input: ManifestInput): Json {
  const { pkg, manifestUrl, serviceUrl, media } = input;
  const item = field(field(pkg, 'view'), 'item');
  const sources = canvasSources(packageBinaries(pkg));
  const canvasId = (position: number) => `${manifestUrl}/canvas/${position}`;

  const title =
    [text(field(item, 'title')), text(field(item, 'label')), text(field(field(pkg, 'preview'), 'title'))]
      .map(plain)
      .find((t) => t !== '') ?? input.itemId;
  const subtitle = plain(text(field(item, 'subtitle')));

  const license = field(item, 'license');
  const licenseUri = text(field(license, 'resource')) || text(field(license, 'url'));
  const rights = rightsUri(licenseUri);
  const metadata = metadataOf(item);
  const licenseText = plain(text(license));
  if (licenseUri !== '' || licenseText !== '') {
    metadata.push({ label: { en: ['License'], de: ['Lizenz'] }, value: none(...unique([licenseText, licenseUri])) });
  }

  const primary = sources.find((s) => s.primary) ?? sources[0];
  const primaryBinary = primary?.variants[0];
  const statement = unique(
    [
      text(field(item, 'rights')),
      primaryBinary?.rights ?? '',
      primaryBinary?.credit ?? '',
      text(field(field(item, 'institution'), 'name')) || text(field(field(pkg, 'provider-info'), 'provider-name')),
    ].map(plain),
  );
  const provider = providerOf(item, pkg, manifestUrl);
  const origin = text(field(item, 'origin'));
  const thumbnail = primary?.variants.at(-1);

  const canvases = sources.map((source) => {
    const painted = source.variants.find((v) => media.has(v.path)) ?? source.variants[0]!;
    const size = media.get(painted.path) ?? undefined;
    const id = canvasId(source.position);
    return {
      id,
      type: 'Canvas',
      label: none(plain(painted.name) || String(source.position)),
      width: (size ?? DEFAULT_CANVAS).width,
      height: (size ?? DEFAULT_CANVAS).height,
      items: [
        {
          id: `${id}/page`,
          type: 'AnnotationPage',
          items: [
            {
              id: `${id}/page/painting`,
              type: 'Annotation',
              motivation: 'painting',
              body: {
                id: serviceUrl + encodeURI(painted.path),
                type: resourceType(painted.mimetype),
                format: painted.mimetype,
                ...(size ? { width: size.width, height: size.height } : {}),
              },
              target: id,
            },
          ],
        },
      ],
    };
  });

  return {
    '@context': IIIF_PRESENTATION_CONTEXT,
    id: manifestUrl,
    type: 'Manifest',
    label: none(title),
    ...(subtitle ? { summary: none(subtitle) } : {}),
    ...(metadata.length > 0 ? { metadata } : {}),
    ...(statement.length > 0
      ? { requiredStatement: { label: { en: ['Attribution'], de: ['Rechtehinweis'] }, value: none(...statement) } }
      : {}),
    ...(rights ? { rights } : {}),
    ...(provider ? { provider: [provider] } : {}),
    ...(isHttpUrl(origin) ? { homepage: [{ id: origin, type: 'Text', label: none(title), format: 'text/html' }] } : {}),
    ...(input.partOf ? { partOf: [{ id: input.partOf.id, type: 'Collection', label: none(input.partOf.label || input.partOf.id) }] } : {}),
    seeAlso: [
      {
        id: `${serviceUrl}/items/${encodeURIComponent(input.itemId)}/aip`,
        type: 'Dataset',
        label: { en: ['Item package (DDB archival information package)'], de: ['Objektpaket (AIP der DDB)'] },
        format: 'application/json',
      },
    ],
    ...(thumbnail && resourceType(thumbnail.mimetype) === 'Image'
      ? { thumbnail: [{ id: serviceUrl + encodeURI(thumbnail.path), type: 'Image', format: thumbnail.mimetype }] }
      : {}),
    ...(primary ? { start: { id: canvasId(primary.position), type: 'Canvas' } } : {}),
    items: canvases,
  };
}
