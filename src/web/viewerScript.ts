/**
 * The item page's viewer (docs/pages.md "Viewer"), served at /assets/viewer.js: an
 * enhancement of a page that works without it. It reads the item's IIIF manifest (our own,
 * at /item/{id}/iiif), opens its images in OpenSeadragon (served from our origin at
 * /assets/openseadragon.min.js) and shows the viewer's section, hidden until then; a picture
 * of the page then opens in the viewer instead of as a file. A string, as the stylesheet is,
 * so that dist/ holds it without a copy step. Plain ES2017 for every browser the pages serve.
 */
export const VIEWER_SCRIPT = `'use strict';
(function () {
  var section = document.querySelector('section.viewer[data-manifest]');
  if (!section || typeof OpenSeadragon !== 'function' || typeof fetch !== 'function') return;
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
  fetch(section.getAttribute('data-manifest'), { headers: { accept: 'application/ld+json' } })
    .then(function (response) {
      if (!response.ok) throw new Error('manifest: ' + response.status);
      return response.json();
    })
    .then(function (manifest) {
      var sources = (manifest.items || []).map(sourceOf).filter(Boolean);
      if (sources.length === 0) return;
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
      // A picture of the page opens in the viewer, on the canvas that paints it.
      Array.prototype.forEach.call(document.querySelectorAll('.media a.pic'), function (link) {
        var page = sources.findIndex(function (s) { return s.id === link.href; });
        if (page < 0) return;
        link.addEventListener('click', function (event) {
          event.preventDefault();
          if (sources.length > 1) viewer.goToPage(page);
          section.scrollIntoView();
          area.querySelector('[tabindex]') && area.querySelector('[tabindex]').focus();
        });
      });
    })
    .catch(function () {
      section.hidden = true;
    });
})();
`;
