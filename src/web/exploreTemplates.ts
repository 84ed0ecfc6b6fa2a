/**
 * The templates of the ways to explore (docs/pages.md "Ways to explore"), registered with
 * the others (./templates.ts): the page of a facet's values, the date range with its
 * histogram, similar items on the item page, the persons index, the home page's tiles.
 * Bars are inline SVG whose sizes are attributes, not styles: the pages' CSP allows no
 * inline style, and a bar is drawn without JavaScript.
 */

/** Hidden fields of a form that keeps the search's state: `it.hidden` is a list of [name, value]. */
const hidden = `<% it.hidden.forEach(function (h) { %>    <input type="hidden" name="<%= h[0] %>" value="<%= h[1] %>">
<% }) %>`;

/** "Show all" and the filter box under a facet with more values than shown (a GET form: no JavaScript needed). */
const facetMore = `<% if (it.group.more) { %>
  <p class="more"><a href="<%= it.group.more %>"><%= it.t.showAll %><span class="visually-hidden">: <%= it.group.label %></span></a></p>
  <form class="facet-filter" action="<%= it.group.action %>" method="get">
<%~ include('@hidden', { hidden: it.hidden }) %>
    <label for="fq-<%= it.group.field %>"><%= it.t.filterValues %><span class="visually-hidden">: <%= it.group.label %></span></label>
    <span class="field"><input id="fq-<%= it.group.field %>" name="fq" type="search" size="10"> <button type="submit"><%= it.t.filterButton %></button></span>
  </form>
<% } %>
`;

const facetValues = `<% layout('@layout') %>
<h1><%= it.title %></h1>
<% it.problems.forEach(function (p) { %>
<p class="problem"><%= p %></p>
<% }) %>
<p><a href="<%= it.results %>"><%= it.t.backToResults %></a></p>
<form class="values-filter" action="<%= it.action %>" method="get">
<%~ include('@hidden', { hidden: it.hidden }) %>
  <span class="control"><label for="fq"><%= it.t.filterValues %></label>
  <input id="fq" name="fq" type="search" value="<%= it.text %>"></span>
  <span class="control"><label for="vsort"><%= it.t.order %></label>
  <select id="vsort" name="vsort">
    <option value="count"<% if (!it.byName) { %> selected<% } %>><%= it.t.byCount %></option>
    <option value="name"<% if (it.byName) { %> selected<% } %>><%= it.t.byName %></option>
  </select></span>
  <button type="submit"><%= it.t.filterButton %></button>
</form>
<p class="total" role="status"><%= it.total === 0 ? (it.text ? it.fmt(it.t.noValues, { text: it.text }) : it.t.noResults) : it.fmt(it.t.valuesShowing, { from: it.num(it.from), to: it.num(it.to), total: it.num(it.total) }) %></p>
<% if (it.values.length > 0) { %>
<section class="facet values" aria-labelledby="values-heading">
  <h2 id="values-heading" class="visually-hidden"><%= it.label %></h2>
  <ul>
<% it.values.forEach(function (v) { %>
    <li><a href="<%= v.href %>"<% if (v.active) { %> aria-current="true" class="active"<% } %>><span class="label"><%= v.label %></span> <span class="count"><%= it.num(v.count) %></span></a></li>
<% }) %>
  </ul>
</section>
<% } %>
<% if (it.previous || it.next) { %>
<nav class="pager" aria-label="<%= it.t.pages %>">
  <ul>
<% if (it.previous) { %>    <li><a href="<%= it.previous %>" rel="prev"><%= it.t.previous %></a></li>
<% } %>
    <li><span><%= it.fmt(it.t.pageOf, { page: it.page, pages: it.pages }) %></span></li>
<% if (it.next) { %>    <li><a href="<%= it.next %>" rel="next"><%= it.t.next %></a></li>
<% } %>
  </ul>
</nav>
<% } %>
`;

/** The date range beside the results: the histogram of the hits' dates, a form for the years, and a way back. */
const timeline = `<section class="timeline" aria-labelledby="timeline-heading">
  <h3 id="timeline-heading"><%= it.t.dateRange %><% if (it.timeline.span) { %>: <%= it.timeline.span %><% } %></h3>
<% if (it.timeline.bars.length > 0) { %>
  <ul class="bars" aria-label="<%= it.t.timeline %>">
<% it.timeline.bars.forEach(function (b) { %>
    <li><a href="<%= b.href %>"<% if (b.current) { %> aria-current="true"<% } %>><span class="visually-hidden"><%= b.label %></span><span class="range" aria-hidden="true"><%= b.range %></span><svg class="bar" viewBox="0 0 100 12" width="100" height="12" preserveAspectRatio="none" aria-hidden="true" focusable="false"><rect x="0" y="0" width="<%= b.width %>" height="12"></rect></svg><span class="count" aria-hidden="true"><%= it.num(b.count) %></span></a></li>
<% }) %>
  </ul>
<% } %>
  <form class="range" action="/search" method="get">
<%~ include('@hidden', { hidden: it.rangeHidden }) %>
    <span class="control"><label for="from"><%= it.t.fromYear %></label> <input id="from" name="from" type="number" min="1" max="2100" step="1" inputmode="numeric" value="<%= it.timeline.from === undefined ? '' : it.timeline.from %>"></span>
    <span class="control"><label for="to"><%= it.t.toYear %></label> <input id="to" name="to" type="number" min="1" max="2100" step="1" inputmode="numeric" value="<%= it.timeline.to === undefined ? '' : it.timeline.to %>"></span>
    <button type="submit"><%= it.t.applyRange %></button>
  </form>
<% if (it.timeline.remove) { %>
  <p><a href="<%= it.timeline.remove %>"><%= it.t.removeRange %></a></p>
<% } %>
</section>
`;

/** Similar items on the item page (src/search/moreLikeThis.ts), a partial of its own. */
const similar = `<% if (it.similar && it.similar.length > 0) { %>
<section class="similar" aria-labelledby="similar-heading">
  <h2 id="similar-heading"><%= it.t.similar %></h2>
  <ol class="hits">
<% it.similar.forEach(function (hit) { %>
<%~ include('@hit', { hit: hit }) %>
<% }) %>
  </ol>
</section>
<% } %>
`;

/** A tile of an item with its picture, on the home page; `eager` for the first row, whose picture is the largest paint of the page and would wait for layout if lazy (docs/pages.md "Tests", Lighthouse). */
const tile = `<li class="tile"><a href="<%= it.hit.href %>"><span class="thumb"><span class="nothumb" aria-hidden="true"><%= (it.hit.media || '·').slice(0, 1).toUpperCase() %></span><% if (it.hit.thumbnail) { %><img src="<%= it.hit.thumbnail %>" alt="" loading="<%= it.eager ? 'eager' : 'lazy' %>" width="160" height="120"><% } %></span><span class="title"><%= it.hit.title || it.hit.label || it.hit.id %></span></a></li>
`;

const persons = `<% layout('@layout') %>
<h1><%= it.t.personsIndex %></h1>
<% it.problems.forEach(function (p) { %>
<p class="problem"><%= p %></p>
<% }) %>
<nav class="initials" aria-label="<%= it.t.byInitial %>">
  <ul>
<% it.initials.forEach(function (i) { %>
    <li><a href="<%= i.href %>"<% if (i.current) { %> aria-current="page"<% } %><% if (i.title) { %> aria-label="<%= i.title %>"<% } %>><%= i.label %></a></li>
<% }) %>
  </ul>
</nav>
<div class="toolbar">
  <p class="total" role="status"><%= it.total === 0 ? it.t.noPersons : it.fmt(it.t.personsShowing, { from: it.num(it.from), to: it.num(it.to), total: it.num(it.total) }) %></p>
  <form class="sort" action="/persons" method="get">
<%~ include('@hidden', { hidden: it.hidden }) %>
    <label for="psort"><%= it.t.sort %></label>
    <select id="psort" name="sort">
      <option value="items"<% if (!it.byName) { %> selected<% } %>><%= it.t.mostItems %></option>
      <option value="name"<% if (it.byName) { %> selected<% } %>><%= it.t.nameOrder %></option>
    </select>
    <button type="submit"><%= it.t.sortApply %></button>
  </form>
</div>
<% if (it.persons.length > 0) { %>
<ol class="persons-list" start="<%= it.from %>">
<% it.persons.forEach(function (p) { %>
  <li><% if (p.href) { %><a class="name" href="<%= p.href %>"><%= p.name %></a><% } else { %><span class="name"><%= p.name %></span><% } %><% if (p.born || p.died) { %> <span class="dates">(<%= p.born %>–<%= p.died %>)</span><% } %><% if (p.occupations.length) { %> <span class="occupations"><%= p.occupations.slice(0, 3).join(', ') %></span><% } %>
    <span class="items"><% if (p.itemsHref) { %><a href="<%= p.itemsHref %>"><%= p.itemCount %></a><% } else { %><%= p.itemCount %><% } %></span></li>
<% }) %>
</ol>
<% } %>
<% if (it.previous || it.next) { %>
<nav class="pager" aria-label="<%= it.t.pages %>">
  <ul>
<% if (it.previous) { %>    <li><a href="<%= it.previous %>" rel="prev"><%= it.t.previous %></a></li>
<% } %>
    <li><span><%= it.fmt(it.t.pageOf, { page: it.page, pages: it.pages }) %></span></li>
<% if (it.next) { %>    <li><a href="<%= it.next %>" rel="next"><%= it.t.next %></a></li>
<% } %>
  </ul>
</nav>
<% } %>
`;

export const EXPLORE_TEMPLATES: Readonly<Record<string, string>> = { hidden, facetMore, facetValues, timeline, similar, tile, persons };

/** The rules of these templates, appended to the pages' stylesheet (./stylesheet.ts). */
export const EXPLORE_STYLES = `.more { margin: 0.25rem 0; }
.facet-filter { margin: 0.25rem 0 0.75rem; font-size: 0.9rem; }
.facet-filter label { display: block; }
.facet-filter .field { display: flex; gap: 0.25rem; }
.facet-filter input, .values-filter input, .range input { font: inherit; padding: 0.3rem 0.4rem; border: 1px solid #52606d; border-radius: 4px; min-width: 0; }
.facet-filter input { flex: 1; }
.facet-filter button, .range button { padding: 0.3rem 0.6rem; }
.values-filter, .range { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 0.5rem; margin: 0.5rem 0; }
.values-filter .control, .range .control { display: flex; flex-direction: column; }
.range input { width: 6rem; }
.values ul { columns: 18rem; }
.values li { break-inside: avoid; }
.timeline .bars { list-style: none; margin: 0; padding: 0; }
.timeline .bars a { display: grid; grid-template-columns: 6.5rem 1fr auto; align-items: center; gap: 0.4rem; padding: 0.1rem 0.25rem; text-decoration: none; border-radius: 3px; font-size: 0.9rem; }
.timeline .bars a:hover .range { text-decoration: underline; }
.timeline .bars a[aria-current] { background: #e6eef6; font-weight: 600; }
.timeline .bar { width: 100%; height: 0.75rem; background: #e6eef6; border-radius: 2px; }
.timeline .bar rect { fill: #0b4f8a; }
.timeline .count { color: #3e4c59; font-variant-numeric: tabular-nums; text-align: right; }
.tiles { list-style: none; padding: 0; display: grid; gap: 1rem; grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr)); }
.tile a { display: flex; flex-direction: column; gap: 0.35rem; text-decoration: none; color: inherit; }
.tile .thumb { position: relative; display: block; aspect-ratio: 4 / 3; overflow: hidden; border-radius: 4px; background: #e6eef6; }
.tile .thumb img, .tile .nothumb { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; }
.tile .nothumb { display: flex; align-items: center; justify-content: center; font-size: 2rem; color: #3e4c59; }
.tile .title { color: #0b4f8a; font-weight: 600; text-decoration: underline; overflow-wrap: anywhere; display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; }
.recent { padding-left: 1.5rem; }
.initials ul { display: flex; flex-wrap: wrap; gap: 0.25rem; list-style: none; padding: 0; margin: 0.5rem 0; }
.initials a { display: inline-block; min-width: 2.25rem; padding: 0.3rem 0.5rem; text-align: center; border: 1px solid #d9e2ec; border-radius: 4px; text-decoration: none; }
.initials a[aria-current] { background: #0b4f8a; color: #fff; border-color: #0b4f8a; }
.persons-list { padding-left: 2.5rem; }
.persons-list li { padding: 0.35rem 0; border-bottom: 1px solid #d9e2ec; }
.persons-list .name { font-weight: 600; }
.persons-list .occupations { display: block; color: #3e4c59; font-size: 0.95rem; }
.persons-list .items { display: block; font-size: 0.95rem; }
@media (prefers-color-scheme: dark) {
  .facet-filter input, .values-filter input, .range input { background: #1f2933; color: #e4e7eb; border-color: #9aa5b1; }
  .timeline .bar, .tile .thumb { background: #243b53; }
  .timeline .bar rect { fill: #8cc4ff; }
  .timeline .bars a[aria-current] { background: #243b53; color: #e4e7eb; }
  .timeline .count, .tile .nothumb, .persons-list .occupations { color: #cbd2d9; }
  .tile .title { color: #8cc4ff; }
  .initials a { border-color: #52606d; }
  .initials a[aria-current] { background: #8cc4ff; color: #0b1a2a; border-color: #8cc4ff; }
  .persons-list li { border-bottom-color: #323f4b; }
}
@media print {
  .timeline, .facet-filter, .values-filter, .similar, .initials { display: none !important; }
}
`;
