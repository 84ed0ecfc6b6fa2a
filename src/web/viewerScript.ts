/**
 * The item page's viewer (docs/pages.md "Viewer"), served at /assets/viewer.js: an
 * enhancement of a page that works without it. A picture of the page opens the viewer: only
 * then does the script load OpenSeadragon (from our origin, /assets/openseadragon.min.js), read
 * the item's IIIF manifest (our own, at /item/{id}/iiif), show the viewer's section, hidden
 * until then, and open the picture's canvas. Loading on demand keeps the page's first paint
 * free of OpenSeadragon's ~200 KB of script and keeps the section from pushing the record down
 * while the page loads (a layout shift; Lighthouse's CLS and TBT, docs/pages.md "Tests"). A
 * string, as the stylesheet is, so that dist/ holds it without a copy step. Plain ES2017 for
 * every browser the pages serve.
 */
export const VIEWER_SCRIPT = `'use strict';
(function () {
  var section = document.querySelector('section.viewer[data-manifest]');
  if (!section || typeof fetch !== 'function' || typeof Promise !== 'function') return;
  var area = section.querySelector('.viewer-area');
  /** A canvas's image: a IIIF Image API service's info.json, else the image itself. */
  function sourceOf(canvas) {
    var page = (canvas.items || [])[0];
    var annotation = page && (page.items || [])[0];
    var body = annotation && annotation.body;
    if (!body || body.type !== 'Image' || typeof body.id !== 'string') return undefined;
    var service = [].concat(body.service || [])[0];
    var serviceId = service && (service.id || service['@id']);
    return { id: body.id, tiles: typeof serviceId === 'string' ? serviceId.replace(/\\/$/, '') + '/info.json' : { type: 'image', url: body.id } };
  }
  function loadOpenSeadragon() {
    if (typeof OpenSeadragon === 'function') return Promise.resolve();
    return new Promise(function (resolve, reject) {
      var script = document.createElement('script');
      script.src = '/assets/openseadragon.min.js';
      script.onload = function () { resolve(); };
      script.onerror = function () { reject(new Error('openseadragon.min.js')); };
      document.head.appendChild(script);
    });
  }
  /** The viewer and its sources, made once, on the first picture opened. */
  var opening;
  function open() {
    if (!opening) {
      opening = Promise.all([
        loadOpenSeadragon(),
        fetch(section.getAttribute('data-manifest'), { headers: { accept: 'application/ld+json' } }).then(function (response) {
          if (!response.ok) throw new Error('manifest: ' + response.status);
          return response.json();
        }),
      ]).then(function (loaded) {
        var sources = (loaded[1].items || []).map(sourceOf).filter(Boolean);
        if (sources.length === 0) throw new Error('no image in the manifest');
        section.hidden = false;
        var viewer = OpenSeadragon({
          element: area,
          prefixUrl: '/assets/openseadragon/images/',
          tileSources: sources.map(function (s) { return s.tiles; }),
          sequenceMode: sources.length > 1,
          showNavigator: false,
          drawer: 'canvas',
        });
        viewer.addHandler('tile-loaded', function () {
          section.setAttribute('data-loaded', 'true');
        });
        viewer.addHandler('open-failed', function () {
          section.setAttribute('data-loaded', 'failed');
        });
        return { viewer: viewer, sources: sources };
      });
    }
    return opening;
  }
  // A picture of the page opens in the viewer, on the canvas that paints it; where the viewer
  // cannot open (no OpenSeadragon, no manifest, a picture the manifest lacks) the link is followed.
  Array.prototype.forEach.call(document.querySelectorAll('.media a.pic'), function (link) {
    if (!link.querySelector('img')) return;
    link.addEventListener('click', function (event) {
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      open()
        .then(function (opened) {
          var page = opened.sources.findIndex(function (s) { return s.id === link.href; });
          if (page < 0) {
            window.location.href = link.href;
            return;
          }
          if (opened.sources.length > 1) opened.viewer.goToPage(page);
          section.scrollIntoView();
          var focusable = area.querySelector('[tabindex]');
          if (focusable) focusable.focus();
        })
        .catch(function () {
          section.hidden = true;
          window.location.href = link.href;
        });
    });
  });
})();
`;
