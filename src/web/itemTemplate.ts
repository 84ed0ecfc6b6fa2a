/**
 * The item page's template (docs/pages.md "Item page"; Eta as ./templates.ts): the record,
 * its media, the viewer (shown by /assets/viewer.js; hidden without JavaScript), citations
 * (plain and BibTeX), permalink and downloads, its place in the hierarchy.
 */
export const ITEM_TEMPLATE = `<% layout('@layout') %>
<% if (it.crumbs.length > 0) { %>
<nav class="breadcrumb" aria-label="<%= it.t.breadcrumb %>">
  <ol>
<% it.crumbs.forEach(function (c) { %>
    <li><a href="<%= c.href %>"><%= c.label %></a></li>
<% }) %>
    <li><span aria-current="page"><%= it.item.title %></span></li>
  </ol>
</nav>
<% } %>
<article class="item">
<h1><%= it.item.title %></h1>
<% if (it.item.subtitle) { %><p class="subtitle"><%= it.item.subtitle %></p><% } %>
<div class="item-layout">
<div class="item-main">
<% if (it.viewer) { %>
<section class="viewer" aria-labelledby="viewer" data-manifest="<%= it.viewer %>" hidden>
  <h2 id="viewer"><%= it.t.viewer %></h2>
  <div class="viewer-area" role="application" aria-label="<%= it.t.viewer %>: <%= it.item.title %>"></div>
  <p class="note"><%= it.t.viewerNote %></p>
</section>
<% } %>
<% if (it.images.length > 0 || it.files.length > 0) { %>
<section aria-labelledby="media">
  <h2 id="media"><%= it.t.media %></h2>
<% if (it.images.length > 0) { %>
  <ul class="media">
<% it.images.forEach(function (m) { %>
<% if (m.shown) { %>
    <li><a class="pic" href="<%= m.href %>"><span class="ph" aria-hidden="true"><%= m.kind %></span><img src="<%= m.src %>" alt="" loading="lazy"><span class="visually-hidden"><%= it.t.openImage %>: <%= m.name || it.item.title %></span></a><% if (m.name) { %><span class="caption"><%= m.name %></span><% } %></li>
<% } else if (m.elsewhere) { %>
    <li><a class="pic" href="<%= m.elsewhere %>" rel="external noopener"><span class="ph"><%= m.kind %><span class="visually-hidden">: <%= m.name || it.item.title %>,</span> <span class="note"><%= it.t.atSource %></span></span></a><% if (m.name) { %><span class="caption" aria-hidden="true"><%= m.name %></span><% } %></li>
<% } else { %>
    <li><span class="pic"><span class="ph"><%= m.kind %><span class="visually-hidden">: <%= m.name || it.item.title %>,</span> <span class="note"><%= it.t.notHere %></span></span></span><% if (m.name) { %><span class="caption" aria-hidden="true"><%= m.name %></span><% } %></li>
<% } %>
<% }) %>
  </ul>
<% } %>
<% if (it.files.length > 0) { %>
  <ul class="files">
<% it.files.forEach(function (d) { %>
    <li><% if (d.shown && d.player === 'audio') { %><audio controls preload="none" src="<%= d.href %>"></audio><% } else if (d.shown && d.player === 'video') { %><video controls preload="none" src="<%= d.href %>"></video><% } %><% if (d.shown) { %><a href="<%= d.href %>" download><%= it.t.download %>: <%= d.name || d.href.split('/').pop() %></a><% } else { %><%= it.t.download %>: <%= d.name || d.href.split('/').pop() %><% } %> <span class="type">(<%= d.facts.join(', ') %><% if (!d.shown) { %>; <%= it.t.notHere %><% } %>)</span></li>
<% }) %>
  </ul>
<% } %>
</section>
<% } %>
<section aria-labelledby="details">
  <h2 id="details"><%= it.t.details %></h2>
  <dl class="facts">
<% it.fields.forEach(function (f) { %>
    <dt><%= f.label %></dt>
<% f.values.forEach(function (v) { %>
<% if (v.html !== undefined) { %>
    <dd><%~ v.html %></dd>
<% } else if (v.link) { %>
    <dd><a href="<%= v.link %>"><%= v.text %></a></dd>
<% } else if (v.href) { %>
    <dd><a href="<%= v.href %>" rel="external noopener"><%= v.text %></a></dd>
<% } else { %>
    <dd><%= v.text %></dd>
<% } %>
<% }) %>
<% }) %>
<% if (it.item.provider) { %>
    <dt><%= it.t.provider %></dt>
    <dd><a href="<%= it.providerSearch %>"><%= it.item.provider.name %></a><% if (it.item.provider.url) { %> · <a href="<%= it.item.provider.url %>" rel="external noopener"><%= it.item.provider.url %></a><% } %></dd>
<% } %>
<% if (it.item.license) { %>
    <dt><%= it.t.license %></dt>
    <dd><% if (it.licenseName) { %><span class="badge"><%= it.licenseName %></span> <% } %><% if (it.item.license.url) { %><a href="<%= it.item.license.url %>" rel="license external noopener"><%= it.item.license.text %></a><% } else { %><%= it.item.license.text %><% } %></dd>
<% } %>
<% if (it.item.rights) { %>
    <dt><%= it.t.rights %></dt>
    <dd><%= it.item.rights %></dd>
<% } %>
  </dl>
<% if (it.item.origin) { %>
  <p><a href="<%= it.item.origin %>" rel="external noopener"><%= it.t.original %></a></p>
<% } %>
</section>
</div>
<div class="item-side">
<% if (it.childTotal > 0) { %>
<section aria-labelledby="children">
  <h2 id="children"><%= it.t.children %> <span class="count">(<%= it.fmt(it.t.childrenCount, { total: it.num(it.childTotal) }) %>)</span></h2>
  <ol class="children">
<% it.children.forEach(function (c) { %>
    <li><a href="<%= c.href %>"><%= c.label %></a><% if (c.childCount > 0) { %> <span class="count">(<%= it.num(c.childCount) %>)</span><% } %></li>
<% }) %>
  </ol>
<% if (it.childPages > 1) { %>
  <nav class="pager" aria-label="<%= it.t.parts %>: <%= it.t.pages %>">
    <ul>
<% if (it.childPrevious) { %>      <li><a href="<%= it.childPrevious %>" rel="prev"><%= it.t.previous %></a></li>
<% } %>
      <li><span><%= it.fmt(it.t.pageOf, { page: it.childPage, pages: it.childPages }) %></span></li>
<% if (it.childNext) { %>      <li><a href="<%= it.childNext %>" rel="next"><%= it.t.next %></a></li>
<% } %>
    </ul>
  </nav>
<% } %>
</section>
<% } %>
<% if (it.inHierarchy) { %>
<p><a href="<%= it.treeHref %>"><%= it.t.hierarchy %></a></p>
<% } %>
<section class="cite" aria-labelledby="cite">
  <h2 id="cite"><%= it.t.cite %></h2>
  <h3><%= it.t.citation %></h3>
  <p class="citation"><%= it.citation %></p>
  <h3><%= it.t.bibtex %></h3>
  <pre class="bibtex"><%= it.bibtex %></pre>
  <p><a href="<%= it.bibtexHref %>" type="application/x-bibtex" download><%= it.t.downloadBibtex %></a></p>
  <h3><%= it.t.permalink %></h3>
  <p class="permalink"><a href="<%= it.permalink %>"><%= it.permalink %></a></p>
  <h3><%= it.t.downloadRecord %></h3>
  <ul class="formats">
<% it.downloads.forEach(function (d) { %>
    <li><a href="<%= d.href %>" type="<%= d.type %>" download><%= d.label %></a></li>
<% }) %>
  </ul>
<% if (it.mediaDownloads.length > 0) { %>
  <h3><%= it.t.downloadMedia %></h3>
  <ul class="downloads">
<% it.mediaDownloads.forEach(function (d) { %>
    <li><a href="<%= d.href %>" download><%= d.name %></a> <span class="type">(<%= d.facts.join(', ') %>)</span></li>
<% }) %>
  </ul>
<% } else if (it.mediaRestricted) { %>
  <h3><%= it.t.downloadMedia %></h3>
  <p class="note"><%= it.t.mediaNotReusable %></p>
<% } %>
</section>
<section aria-labelledby="formats">
  <h2 id="formats"><%= it.t.dataFormats %></h2>
  <ul class="formats">
<% it.api.forEach(function (a) { %>
    <li><a href="<%= a.href %>" type="<%= a.type %>"><%= a.label %></a></li>
<% }) %>
  </ul>
  <p class="note"><%= it.t.apiKeyNote %></p>
</section>
</div>
</div>
<%~ include('@similar', it) %>
</article>
`;
