import { REUSABLE_GROUPS } from '../domain/licenseGroups.js';
import { itemFields } from '../formats/itemFields.js';
import { itemBibtex } from './bibtex.js';
import { citationLicense, plainCitation } from './citation.js';
import { licenseName, readableFields, type FieldLinks } from './fieldValues.js';
import { first, frame, itemPath, problemPage, type PageAnswer, type PageRequest } from './frame.js';
import { itemView } from './itemView.js';
import { shownFiles, shownImages } from './mediaView.js';
import { format } from './messages.js';
import type { PageDeps } from './pageDeps.js';
import { similarItems } from './moreLikeThisView.js';
import { itemMeta } from './pageMeta.js';
import { gndUri } from './personView.js';
import { readSearchState, searchUrl } from './searchState.js';

/** The RDF syntaxes of an item's EDM graph at /items/{id} (src/http/linkedData.ts). */
const LINKED_DATA_TYPES = ['application/ld+json', 'text/turtle', 'application/n-triples', 'application/rdf+xml'] as const;
const CHILD_ROWS = 20;

/** The record to download, at the page's own paths (no key; ../http/routes/pages.ts): file name, type, label. */
const DOWNLOADS = [
  { file: 'record.json', type: 'application/json', label: (t: string) => `${t} · JSON` },
  { file: 'record.xml', type: 'application/xml', label: (t: string) => `${t} · XML` },
  { file: 'edm.rdf', type: 'application/rdf+xml', label: () => 'EDM · RDF/XML', edm: true },
  { file: 'edm.ttl', type: 'text/turtle', label: () => 'EDM · Turtle', edm: true },
  { file: 'edm.jsonld', type: 'application/ld+json', label: () => 'EDM · JSON-LD', edm: true },
  { file: 'edm.nt', type: 'application/n-triples', label: () => 'EDM · N-Triples', edm: true },
] as const;

/** The scripts of the viewer (our own files; docs/pages.md "Viewer"). */
const VIEWER_SCRIPTS = ['/assets/viewer.js'];

const GND_PERSON = /^https?:\/\/d-nb\.info\/gnd\/([0-9][0-9Xx-]*)$/;

/** The item page (docs/pages.md): the record for people, its media, its place in the hierarchy. */
export async function itemPage(deps: PageDeps, id: string, req: PageRequest): Promise<PageAnswer> {
  const { store, render, media } = deps;
  const f = frame(itemPath(id), req, (t) => t.notFound);
  const doc = await store.getItemDocument(id, 'json');
  if (doc === undefined) return problemPage(render, f, 404, f.t.notFound, format(f.t.itemNotFound, { id }));
  if (doc.blockedReason !== null) return problemPage(render, f, 404, f.t.notFound, f.t.blocked);
  const pkg: unknown = JSON.parse(doc.body.toString('utf8'));
  const view = itemView(id, pkg);
  const { state } = readSearchState({});
  const cpage = pageParam(first(req.query.cpage));
  const children = (await store.getChildren(id, (cpage - 1) * CHILD_ROWS, CHILD_ROWS)) ?? { total: 0, nodes: [] };
  const childPages = Math.max(1, Math.ceil(children.total / CHILD_ROWS));
  const pagedLink = (p: number) => f.link(p === 1 ? itemPath(id) : `${itemPath(id)}?cpage=${p}`);
  const crumbs = await breadcrumb(deps.store, id);
  const enc = encodeURIComponent(id);
  const links = await fieldLinks(
    deps,
    view.fields.flatMap((field) => field.resources),
    f.link,
  );
  const licenseShort = view.license === undefined ? '' : licenseName(view.license.url) || licenseName(view.license.text);
  const permalink = `${req.origin ?? ''}${itemPath(id)}`;
  // The package's preview thumbnail stands in for an item whose package lists no binaries (a
  // sound's or a file's thumbnail path names no picture).
  const images =
    view.images.length > 0 || view.files.length > 0 || view.thumbnail === ''
      ? view.images
      : [{ renditions: [{ href: view.thumbnail, variant: '' }], name: '', mimetype: '', origin: '' }];
  const shown = await shownImages(images, media, f.lang, f.t);
  const files = await shownFiles(view.files, media, f.lang, f.t);
  const withViewer = view.hasManifest && shown.some((m) => m.shown);
  // The media to download where the licence's group is one of the reusable ones, the group the
  // search gives the item (docs/search.md "Licences"; docs/pages.md "Cite and share").
  const group = itemFields(pkg, id).facets['license_group']?.[0];
  const reusable = group !== undefined && (REUSABLE_GROUPS as readonly string[]).includes(group);
  const offered = [
    ...shown.filter((m) => m.shown).map((m) => ({ href: m.href, name: m.name || m.href.split('/').pop() || view.title, facts: m.facts })),
    ...files.filter((d) => d.shown).map((d) => ({ href: d.href, name: d.name || d.href.split('/').pop() || view.title, facts: d.facts })),
  ];
  const today = new Date();
  return {
    status: 200,
    html: render('item', {
      ...f,
      title: view.title,
      item: view,
      fields: readableFields(view.fields, f.lang, links),
      licenseName: licenseShort,
      images: shown,
      // The viewer where there is a manifest and a picture to show in it; the page works without it.
      viewer: withViewer ? `${itemPath(id)}/iiif` : undefined,
      scripts: withViewer ? VIEWER_SCRIPTS : [],
      permalink,
      citation: plainCitation({
        title: view.title,
        fields: view.fields,
        provider: view.provider?.name ?? '',
        permalink,
        license: citationLicense(view.license),
        lang: f.lang,
        t: f.t,
        today,
      }),
      bibtex: itemBibtex(view, permalink, today),
      bibtexHref: `${itemPath(id)}/cite.bib`,
      mediaDownloads: reusable ? offered : [],
      mediaRestricted: !reusable && offered.length > 0,
      downloads: DOWNLOADS.filter((d) => !('edm' in d) || view.hasEdm).map((d) => ({
        href: `${itemPath(id)}/${d.file}`,
        type: d.type,
        label: d.label(f.t.recordPackage),
      })),
      files,
      crumbs: crumbs.map((n) => ({ label: n.label || n.id, href: f.link(itemPath(n.id)) })),
      children: children.nodes.map((c) => ({ label: c.label || c.id, href: f.link(itemPath(c.id)), childCount: c.childCount })),
      childTotal: children.total,
      childPage: cpage,
      childPages,
      childPrevious: cpage > 1 ? pagedLink(cpage - 1) : undefined,
      childNext: cpage < childPages ? pagedLink(cpage + 1) : undefined,
      treeHref: f.link(`${itemPath(id)}/tree`),
      similar: await similarItems(deps, f, id),
      inHierarchy: crumbs.length > 0 || children.total > 0,
      providerSearch:
        view.provider === undefined
          ? undefined
          : f.link(searchUrl({ ...state, filters: [{ field: 'provider_fct', value: view.provider.name }] })),
      // For search engines and link previews (docs/pages.md "Found by search engines").
      meta: itemMeta({
        item: view,
        path: itemPath(id),
        origin: req.origin ?? '',
        parent:
          crumbs.length === 0
            ? undefined
            : {
                path: itemPath(crumbs[crumbs.length - 1]!.id),
                label: crumbs[crumbs.length - 1]!.label || crumbs[crumbs.length - 1]!.id,
              },
      }),
      // The item's EDM graph in each RDF syntax, by Accept at the API's path (docs/linked-data.md).
      alternates: LINKED_DATA_TYPES.map((type) => ({ type, href: `/items/${enc}` })),
      // The API answers JSON or XML by Accept (a browser's gets XML): the labels name the resource.
      api: [
        { label: f.t.apiPackage, href: `/items/${enc}`, type: 'application/json' },
        { label: f.t.apiAip, href: `/items/${enc}/aip`, type: 'application/xml' },
        { label: 'EDM', href: `/items/${enc}/edm`, type: 'application/xml' },
        // The manifest only where there is one: an item without binaries answers 404 there.
        ...(view.hasManifest ? [{ label: f.t.apiIiif, href: `/items/${enc}/iiif`, type: 'application/ld+json' }] : []),
        { label: f.t.apiParents, href: `/items/${enc}/parents`, type: 'application/json' },
      ],
    }),
  };
}

/** GND URIs of one record looked up at most: a record naming more links the rest to a search. */
const MAX_LINKED_PERSONS = 200;

/**
 * Links of names and subjects: a person page for each GND URI of a person the store holds
 * (one search for all of them, whatever the number of names), a search for anything else.
 */
async function fieldLinks(deps: PageDeps, resources: readonly string[], link: (path: string) => string): Promise<FieldLinks> {
  const persons = new Map<string, string>();
  const gndOf = new Map<string, string>();
  for (const uri of new Set(resources)) {
    const gnd = GND_PERSON.exec(uri)?.[1]?.toUpperCase();
    if (gnd !== undefined && gndOf.size < MAX_LINKED_PERSONS) gndOf.set(uri, gnd);
  }
  if (gndOf.size > 0) {
    const wanted = [...new Set(gndOf.values())].map((gnd) => gndUri(gnd));
    const found = await deps.engine({
      kind: 'person',
      request: {
        query: { kind: 'or', children: wanted.map((text) => ({ kind: 'term' as const, field: 'id', text })) },
        sort: { kind: 'id', descending: false },
        offset: 0,
        rows: wanted.length,
      },
    });
    const held = new Set(found.ids);
    for (const [uri, gnd] of gndOf) if (held.has(gndUri(gnd))) persons.set(uri, link(`/person/${encodeURIComponent(gnd)}`));
  }
  return {
    person: (uri) => persons.get(uri),
    // A phrase of the words: quotes and backslashes in them would end it (docs/search.md).
    search: (text) =>
      link(searchUrl({ q: `"${text.replace(/["\\]/g, ' ').trim()}"`, filters: [], sort: 'relevance', page: 1, lang: undefined })),
  };
}

/** The item itself first, up to the root: reversed into a breadcrumb, root first, without the item. */
async function breadcrumb(store: PageDeps['store'], id: string) {
  const ancestry = await store.getAncestry(id);
  if (ancestry === undefined) return [];
  return ancestry.nodes.slice(1).reverse();
}

function pageParam(value: string | undefined): number {
  return value !== undefined && /^[0-9]{1,6}$/.test(value) && Number(value) >= 1 ? Number(value) : 1;
}
