/**
 * The pages' templates (Eta: `<%= %>` escapes, `<% %>` runs code; docs/pages.md "The code"). They are
 * TypeScript strings rather than files so that the compiled package (dist/) holds them
 * without a copy step; each is registered under `@<name>` (./render.ts).
 */
import { ITEM_TEMPLATE } from './itemTemplate.js';
import { EXPLORE_TEMPLATES } from './exploreTemplates.js';

const facet = `<section class="facet" aria-labelledby="facet-<%= it.group.field %>">
  <h3 id="facet-<%= it.group.field %>"><%= it.group.label %></h3>
  <ul>
<% it.group.values.forEach(function (v) { %>
    <li><a href="<%= v.href %>"<% if (v.active) { %> aria-current="true" class="active"<% } %>><span class="label"><%= v.label %></span> <span class="count"><%= it.num(v.count) %></span></a></li>
<% }) %>
  </ul>
<%~ include('@facetMore', it) %>
</section>
`;

const hit = `<li class="hit">
  <a href="<%= it.hit.href %>">
    <span class="thumb"><span class="nothumb" aria-hidden="true"><%= (it.hit.media || '·').slice(0, 1).toUpperCase() %></span><% if (it.hit.thumbnail) { %><img src="<%= it.hit.thumbnail %>" alt="" loading="lazy" width="96" height="96"><% } %></span>
    <span class="text">
      <span class="title"><%= it.hit.title || it.hit.label || it.hit.id %></span>
<% if (it.hit.subtitle) { %>
      <span class="subtitle"><%= it.hit.subtitle %></span>
<% } %>
<% if (it.provider) { %>
      <span class="provider"><%= it.provider %></span>
<% } %>
    </span>
  </a>
</li>
`;

const node = `<li<% if (it.node.current) { %> class="current"<% } %>>
  <a href="<%= it.link(it.itemPath(it.node.id)) %>"<% if (it.node.current) { %> aria-current="page"<% } %>><%= it.node.label %></a><% if (it.node.childCount > 0 && !it.node.open) { %> <a class="open" href="<%= it.link(it.itemPath(it.node.id) + '/tree') %>"><span aria-hidden="true">▸</span> <%= it.num(it.node.childCount) %><span class="visually-hidden"> <%= it.t.parts %>: <%= it.t.open %></span></a><% } else if (it.node.childCount > 0) { %> <span class="count">(<%= it.num(it.node.childCount) %>)</span><% } %>
<% if (it.node.open && it.node.children.length > 0) { %>
  <ul>
<% it.node.children.forEach(function (c) { %>
<%~ include('@node', { node: c, lang: it.lang, num: it.num, t: it.t, link: it.link, itemPath: it.itemPath }) %>
<% }) %>
<% if (it.node.more > 0) { %>
    <li class="more"><a href="<%= it.link(it.itemPath(it.node.id)) %>">+ <%= it.num(it.node.more) %></a></li>
<% } %>
  </ul>
<% } %>
</li>
`;

const home = `<% layout('@layout') %>
<h1><%= it.t.siteName %></h1>
<p class="intro"><%= it.t.intro %></p>
<form class="searchbox big" role="search" action="/search" method="get">
  <label for="q"><%= it.t.searchLabel %></label>
  <div class="field">
    <input id="q" name="q" type="search" value="" placeholder="<%= it.t.searchPlaceholder %>">
<% if (it.langParam) { %>
    <input type="hidden" name="lang" value="<%= it.langParam %>">
<% } %>
    <button type="submit"><%= it.t.searchButton %></button>
  </div>
</form>
<section aria-labelledby="counts">
  <h2 id="counts"><%= it.t.counts %></h2>
  <ul class="counts">
    <li><a href="<%= it.allItems %>"><strong><%= it.num(it.itemCount) %></strong> <%= it.t.items %></a></li>
    <li><a href="<%= it.persons %>"><strong><%= it.num(it.personCount) %></strong> <%= it.t.persons %></a></li>
  </ul>
</section>
<% if (it.pictures.length > 0) { %>
<section aria-labelledby="pictures">
  <h2 id="pictures"><%= it.t.withImages %></h2>
  <ul class="tiles">
<% it.pictures.forEach(function (hit, i) { %>
<%~ include('@tile', { hit: hit, eager: i < 4 }) %>
<% }) %>
  </ul>
  <p class="more"><a href="<%= it.pictureSearch %>"><%= it.t.showAll %><span class="visually-hidden">: <%= it.t.withImages %></span></a></p>
</section>
<% } %>
<div class="starts">
<% if (it.sectors) { %>
<%~ include('@facet', { group: { ...it.sectors, label: it.t.sectors, field: 'sector_fct' }, lang: it.lang, num: it.num, t: it.t }) %>
<% } %>
<% if (it.mediaTypes) { %>
<%~ include('@facet', { group: { ...it.mediaTypes, label: it.t.mediaTypes, field: 'type_fct' }, lang: it.lang, num: it.num, t: it.t }) %>
<% } %>
<% if (it.institutions) { %>
<section class="facet" aria-labelledby="facet-provider_fct">
  <h3 id="facet-provider_fct"><%= it.t.providers %></h3>
  <ul>
<% it.institutions.values.forEach(function (v) { %>
    <li><a href="<%= v.href %>"><span class="label"><%= v.label %></span> <span class="count"><%= it.num(v.count) %></span></a></li>
<% }) %>
  </ul>
<% if (it.institutions.more) { %>
  <p class="more"><a href="<%= it.institutions.more %>"><%= it.t.showAll %><span class="visually-hidden">: <%= it.t.providers %></span></a></p>
<% } %>
</section>
<% } %>
</div>
<% if (it.recent.length > 0) { %>
<section aria-labelledby="recent">
  <h2 id="recent"><%= it.t.recent %></h2>
  <ol class="hits">
<% it.recent.forEach(function (hit) { %>
<%~ include('@hit', { hit: hit }) %>
<% }) %>
  </ol>
</section>
<% } %>
<section aria-labelledby="freshness">
  <h2 id="freshness"><%= it.t.freshness %></h2>
  <dl class="facts">
<% it.loads.forEach(function (l) { %>
    <dt><%= it.t.lastLoad %>: <%= l.kind %></dt><dd><%= l.text %></dd>
<% }) %>
<% it.harvests.forEach(function (h) { %>
    <dt><%= it.t.lastHarvest %>: <%= h.source %></dt><dd><%= h.when %></dd>
<% }) %>
<% if (it.loads.length === 0 && it.harvests.length === 0) { %>
    <dt><%= it.t.lastLoad %></dt><dd><%= it.t.never %></dd>
<% } %>
  </dl>
</section>
`;

const layout = `<!DOCTYPE html>
<html lang="<%= it.lang %>">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title><% if (it.title !== it.t.siteName) { %><%= it.title %> · <% } %><%= it.t.siteName %></title>
<link rel="stylesheet" href="/assets/pages.css">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<% (it.scripts || []).forEach(function (src) { %>
<script src="<%= src %>" defer></script>
<% }) %>
<% if (it.meta) { %>
<meta name="description" content="<%= it.meta.description %>">
<link rel="canonical" href="<%= it.meta.canonical %>">
<meta property="og:type" content="<%= it.meta.type %>">
<meta property="og:title" content="<%= it.meta.title %>">
<meta property="og:description" content="<%= it.meta.description %>">
<meta property="og:url" content="<%= it.meta.canonical %>">
<meta property="og:site_name" content="<%= it.t.siteName %>">
<% if (it.meta.image) { %>
<meta property="og:image" content="<%= it.meta.image %>">
<% } %>
<script type="application/ld+json"><%~ it.meta.jsonLd %></script>
<% } else { %>
<meta name="description" content="<%= it.description || it.t.intro %>">
<% } %>
<% (it.alternates || []).forEach(function (a) { %>
<link rel="alternate" type="<%= a.type %>" href="<%= a.href %>">
<% }) %>
</head>
<body>
<a class="skip" href="#main"><%= it.t.skip %></a>
<header class="site">
  <div class="bar">
    <a class="brand" href="<%= it.link('/') %>"><%= it.t.siteName %></a>
    <nav aria-label="<%= it.t.mainNav %>">
      <ul>
        <li><a href="<%= it.link('/search') %>"><%= it.t.allItems %></a></li>
        <li><a href="<%= it.link('/persons') %>"><%= it.t.persons %></a></li>
        <li><a href="<%= it.switchUrl %>" hreflang="<%= it.otherLang %>" lang="<%= it.otherLang %>" title="<%= it.t.otherLanguageName %>"><%= it.t.otherLanguage %></a></li>
      </ul>
    </nav>
  </div>
<% if (!it.bigSearch) { %>
  <form class="searchbox" role="search" action="/search" method="get">
    <label for="q"><%= it.t.searchLabel %></label>
    <div class="field">
      <input id="q" name="q" type="search" value="<%= it.q %>" placeholder="<%= it.t.searchPlaceholder %>">
<% if (it.langParam) { %>
      <input type="hidden" name="lang" value="<%= it.langParam %>">
<% } %>
      <button type="submit"><%= it.t.searchButton %></button>
    </div>
  </form>
<% } %>
</header>
<main id="main" tabindex="-1">
<%~ it.body %>
</main>
<footer class="site">
  <p><%= it.t.footer %></p>
  <p><%= it.t.api %>: <a href="/docs"><%= it.t.apiDocs %></a> · <a href="/openapi.json">OpenAPI</a> · heritage-api <%= it.version %></p>
</footer>
</body>
</html>
`;

const person = `<% layout('@layout') %>
<article class="person">
<h1><%= it.person.name %></h1>
<dl class="facts">
<% if (it.person.born || it.person.placeOfBirth.length) { %>
  <dt><%= it.t.born %></dt><dd><%= [it.person.born].concat(it.person.placeOfBirth).filter(Boolean).join(', ') %></dd>
<% } %>
<% if (it.person.died || it.person.placeOfDeath.length) { %>
  <dt><%= it.t.died %></dt><dd><%= [it.person.died].concat(it.person.placeOfDeath).filter(Boolean).join(', ') %></dd>
<% } %>
<% if (it.person.occupations.length) { %>
  <dt><%= it.t.occupations %></dt><dd><%= it.person.occupations.join(', ') %></dd>
<% } %>
<% if (it.person.gender.length) { %>
  <dt><%= it.t.gender %></dt><dd><%= it.person.gender.join(', ') %></dd>
<% } %>
<% if (it.person.gndLink) { %>
  <dt>GND</dt><dd><a href="<%= it.person.gndLink %>" rel="external noopener"><%= it.t.gndLink %>: <%= it.person.gndLink %></a></dd>
<% } %>
</dl>
<section aria-labelledby="items-about">
  <h2 id="items-about"><%= it.t.itemsAbout %> (<%= it.num(it.itemTotal) %>)</h2>
<% if (it.items.length === 0) { %>
  <p><%= it.t.noItemsAbout %></p>
<% } else { %>
  <ol class="hits">
<% it.items.forEach(function (hit) { %>
<%~ include('@hit', { hit: hit }) %>
<% }) %>
  </ol>
  <p><a href="<%= it.allItems %>"><%= it.fmt(it.t.allItemsAbout, { count: it.num(it.itemTotal) }) %></a></p>
<% } %>
</section>
<% if (it.person.variantNames.length) { %>
<section aria-labelledby="variants">
  <h2 id="variants"><%= it.t.variantNames %> (<%= it.person.variantNames.length %>)</h2>
  <details>
    <summary><%= it.t.variantNames %></summary>
    <ul class="variants">
<% it.person.variantNames.forEach(function (v) { %>
      <li><%= v %></li>
<% }) %>
    </ul>
  </details>
</section>
<% } %>
</article>
`;

const problem = `<% layout('@layout') %>
<h1><%= it.heading %></h1>
<p class="problem"><%= it.message %></p>
<p><a href="<%= it.link('/') %>"><%= it.t.backHome %></a></p>
`;

const search = `<% layout('@layout') %>
<h1><%= it.title %></h1>
<% it.problems.forEach(function (p) { %>
<p class="problem"><%= p %></p>
<% }) %>
<div class="results-layout">
<div class="results">
<div class="toolbar">
  <p class="total" role="status"><%= it.total === 0 ? it.t.noResults : it.fmt(it.t.showing, { from: it.num(it.from), to: it.num(it.to), total: it.num(it.total) }) %></p>
  <form class="sort" action="/search" method="get">
<%~ include('@hidden', { hidden: it.hidden.filter(function (h) { return h[0] !== 'sort'; }) }) %>
    <label for="sort"><%= it.t.sort %></label>
    <select id="sort" name="sort">
<% it.sorts.forEach(function (s) { %>
      <option value="<%= s.value %>"<% if (s.selected) { %> selected<% } %>><%= s.label %></option>
<% }) %>
    </select>
    <button type="submit"><%= it.t.sortApply %></button>
  </form>
</div>
<% if (it.active.length > 0) { %>
<section class="active-filters" aria-labelledby="active-filters">
  <h2 id="active-filters"><%= it.t.activeFilters %></h2>
  <ul>
<% it.active.forEach(function (a) { %>
    <li><a href="<%= a.href %>" class="chip"><%= a.label %> <span aria-hidden="true">×</span><span class="visually-hidden"> (<%= it.t.removeFilter %>)</span></a></li>
<% }) %>
<% if (it.active.length > 1) { %>
    <li><a href="<%= it.clearFilters %>"><%= it.t.removeAll %></a></li>
<% } %>
  </ul>
</section>
<% } %>
<h2 class="visually-hidden"><%= it.t.results %></h2>
<ol class="hits" start="<%= it.from %>">
<% it.results.forEach(function (hit) { %>
<%~ include('@hit', { hit: hit, provider: it.providers[hit.id] }) %>
<% }) %>
</ol>
<% if (it.pages > 1) { %>
<nav class="pager" aria-label="<%= it.t.pages %>">
  <ul>
<% if (it.previous) { %>    <li><a href="<%= it.previous %>" rel="prev"><%= it.t.previous %></a></li>
<% } %>
<% if (it.firstPage) { %>    <li><a href="<%= it.firstPage %>" aria-label="<%= it.fmt(it.t.pageOf, { page: 1, pages: it.pages }) %>">1</a></li>
<% if (it.pageLinks[0].page > 2) { %>    <li class="gap" aria-hidden="true">…</li>
<% } %>
<% } %>
<% it.pageLinks.forEach(function (p) { %>
    <li><a href="<%= p.href %>"<% if (p.current) { %> aria-current="page"<% } %> aria-label="<%= it.fmt(it.t.pageOf, { page: p.page, pages: it.pages }) %>"><%= p.page %></a></li>
<% }) %>
<% if (it.lastPage) { %>
<% if (it.pageLinks[it.pageLinks.length - 1].page < it.lastPage.page - 1) { %>    <li class="gap" aria-hidden="true">…</li>
<% } %>
    <li><a href="<%= it.lastPage.href %>" aria-label="<%= it.fmt(it.t.pageOf, { page: it.lastPage.page, pages: it.pages }) %>"><%= it.lastPage.page %></a></li>
<% } %>
<% if (it.next) { %>    <li><a href="<%= it.next %>" rel="next"><%= it.t.next %></a></li>
<% } %>
  </ul>
</nav>
<% } %>
</div>
<aside class="side" aria-label="<%= it.t.filters %>">
<% if (it.persons.length > 0) { %>
<section class="persons" aria-labelledby="persons">
  <h2 id="persons"><%= it.t.matchingPersons %> (<%= it.num(it.personTotal) %>)</h2>
  <ul>
<% it.persons.forEach(function (p) { %>
    <li><% if (p.href) { %><a href="<%= p.href %>"><%= p.name %></a><% } else { %><%= p.name %><% } %><% if (p.born || p.died) { %> <span class="dates">(<%= p.born %>–<%= p.died %>)</span><% } %></li>
<% }) %>
  </ul>
</section>
<% } %>
<h2><%= it.t.filters %></h2>
<p class="places-link"><a href="<%= it.placesHref %>"><%= it.t.placesLink %></a></p>
<p class="reusable"><a href="<%= it.reusable.href %>" title="<%= it.t.reusableHint %>"<% if (it.reusable.active) { %> aria-current="true" class="active"<% } %>><%= it.t.reusable %></a></p>
<%~ include('@timeline', { timeline: it.timeline, t: it.t, lang: it.lang, num: it.num, rangeHidden: it.hidden.filter(function (h) { return h[0] !== 'from' && h[0] !== 'to'; }) }) %>
<% it.facets.forEach(function (g) { %>
<%~ include('@facet', { group: g, lang: it.lang, num: it.num, t: it.t, hidden: it.hidden.filter(function (h) { return h[0] !== 'sort'; }) }) %>
<% }) %>
</aside>
</div>
`;

const places = `<% layout('@layout') %>
<h1><%= it.title %></h1>
<% it.problems.forEach(function (p) { %>
<p class="problem"><%= p %></p>
<% }) %>
<p><%= it.fmt(it.t.placesIntro, { total: it.num(it.total) }) %> <a href="<%= it.searchHref %>"><%= it.t.allItems %></a></p>
<% if (it.point) { %><p><%= it.point.km === undefined ? it.fmt(it.t.placesAround, { point: it.point.text }) : it.fmt(it.t.placesWithin, { km: it.point.km, point: it.point.text }) %></p><% } %>
<form class="places-form" action="/places" method="get">
<% if (it.state.q) { %>  <input type="hidden" name="q" value="<%= it.state.q %>">
<% } %>
<% it.state.filters.forEach(function (f) { %>  <input type="hidden" name="f" value="<%= f.field + ':' + f.value %>">
<% }) %>
<% if (it.langParam) { %>  <input type="hidden" name="lang" value="<%= it.langParam %>">
<% } %>
  <label for="pt"><%= it.t.pointLabel %></label> <input id="pt" name="pt" value="<%= it.pt %>" inputmode="decimal" placeholder="52.52,13.405">
  <label for="d"><%= it.t.distanceLabel %></label> <input id="d" name="d" value="<%= it.d %>" inputmode="decimal" size="6">
  <button type="submit"><%= it.t.showPlaces %></button>
</form>
<% if (it.places.length === 0) { %>
<p class="total" role="status"><%= it.t.noPlaces %></p>
<% } else { %>
<table class="places">
  <thead><tr><th scope="col"><%= it.t.placeName %></th><th scope="col"><%= it.t.coordinates %></th><th scope="col"><%= it.t.itemCount %></th><% if (it.point) { %><th scope="col"><%= it.t.distance %></th><% } %><th scope="col"><span class="visually-hidden"><%= it.t.aroundHere %></span></th></tr></thead>
  <tbody>
<% it.places.forEach(function (p) { %>
    <tr><td><a href="<%= p.href %>"><%= p.name %></a></td><td><%= p.coordinates %></td><td><%= it.num(p.count) %></td><% if (it.point) { %><td><%= p.distance %></td><% } %><td><a href="<%= p.around %>"><%= it.t.aroundHere %></a></td></tr>
<% }) %>
  </tbody>
</table>
<% } %>
`;

const tree = `<% layout('@layout') %>
<h1><%= it.t.tree %></h1>
<p><a href="<%= it.itemHref %>"><%= it.itemLabel %></a></p>
<nav class="tree" aria-label="<%= it.t.tree %>">
  <ul>
<%~ include('@node', { node: it.root, lang: it.lang, num: it.num, t: it.t, link: it.link, itemPath: it.itemPath }) %>
  </ul>
</nav>
`;

/** Every template by name. */
export const TEMPLATES: Readonly<Record<string, string>> = {
  facet,
  hit,
  node,
  home,
  item: ITEM_TEMPLATE,
  layout,
  person,
  places,
  problem,
  search,
  tree,
  ...EXPLORE_TEMPLATES,
};
