import { EXPLORE_STYLES } from './exploreTemplates.js';

/** The pages' one stylesheet, served at /assets/pages.css (a string: dist/ holds it without a copy step). */
export const STYLESHEET = `/* The pages' one stylesheet (docs/pages.md "Built for the web as it is"):
   phone first, two columns from 48rem. Colours
   keep a contrast of at least 4.5:1 (WCAG 2.2 AA) against their backgrounds. */
*, *::before, *::after { box-sizing: border-box; }
html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; line-height: 1.5; color: #1b1b1b; background: #fff; }
body { margin: 0; }
a { color: #0b4f8a; text-underline-offset: 0.15em; }
a:hover { color: #062d50; }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible { outline: 3px solid #c2410c; outline-offset: 2px; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0.5rem 0 0.75rem; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin: 1.25rem 0 0.5rem; }
h3 { font-size: 1rem; margin: 1rem 0 0.25rem; }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: 0.5rem 1rem; z-index: 10; }
.skip:focus { left: 0.5rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
header.site { background: #102a43; color: #fff; padding: 0.5rem 1rem 0.75rem; }
header.site a { color: #fff; }
header.site .bar { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.5rem; }
header.site .brand { font-weight: 700; font-size: 1.2rem; text-decoration: none; }
header.site nav ul { display: flex; gap: 1rem; list-style: none; margin: 0; padding: 0; }
.searchbox label { display: block; font-size: 0.9rem; margin: 0.25rem 0; }
.searchbox .field { display: flex; gap: 0.5rem; max-width: 40rem; }
.searchbox input[type=search] { flex: 1; min-width: 0; font: inherit; padding: 0.45rem 0.6rem; border: 1px solid #52606d; border-radius: 4px; }
button { font: inherit; padding: 0.45rem 0.9rem; border: 0; border-radius: 4px; background: #0b4f8a; color: #fff; cursor: pointer; }
header.site button { background: #e6eef6; color: #102a43; }
.searchbox.big { margin: 1rem 0 1.5rem; }
.searchbox.big label { font-weight: 600; }
main { display: block; max-width: 72rem; margin: 0 auto; padding: 0.5rem 1rem 2rem; }
footer.site { border-top: 1px solid #d9e2ec; color: #3e4c59; font-size: 0.9rem; padding: 0.5rem 1rem 1.5rem; max-width: 72rem; margin: 0 auto; }
.intro { max-width: 45rem; }
.counts { display: flex; flex-wrap: wrap; gap: 1rem 2rem; list-style: none; padding: 0; font-size: 1.1rem; }
.counts strong { font-size: 1.5rem; }
.starts { display: grid; gap: 0 2rem; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); }
.facet ul { list-style: none; margin: 0; padding: 0; }
.facet li a { display: flex; justify-content: space-between; gap: 0.5rem; padding: 0.2rem 0.25rem; text-decoration: none; border-radius: 3px; }
.facet li a:hover .label { text-decoration: underline; }
.facet li a.active { background: #e6eef6; font-weight: 600; }
.facet .count, .count { color: #3e4c59; font-variant-numeric: tabular-nums; }
.facts dt { font-weight: 600; margin-top: 0.5rem; }
.facts dd { margin: 0 0 0 1rem; overflow-wrap: anywhere; }
.problem { border-left: 4px solid #b42318; background: #fef3f2; padding: 0.5rem 0.75rem; }
.toolbar { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: 0.5rem; }
.toolbar .total { margin: 0; }
.sort { display: flex; align-items: center; gap: 0.5rem; }
select { font: inherit; padding: 0.35rem; }
.active-filters h2 { font-size: 1rem; margin-bottom: 0.25rem; }
.active-filters ul { display: flex; flex-wrap: wrap; gap: 0.5rem; list-style: none; padding: 0; margin: 0 0 0.5rem; }
.chip { display: inline-block; background: #e6eef6; border-radius: 1rem; padding: 0.15rem 0.75rem; text-decoration: none; }
.hits { list-style: none; padding: 0; margin: 0.5rem 0; }
.hit a { display: flex; gap: 0.75rem; padding: 0.6rem 0; border-bottom: 1px solid #d9e2ec; text-decoration: none; color: inherit; }
.hit .thumb { position: relative; flex: none; width: 96px; height: 96px; }
.hit .thumb img, .hit .nothumb { position: absolute; inset: 0; width: 96px; height: 96px; object-fit: cover; border-radius: 4px; }
.hit .nothumb { display: flex; align-items: center; justify-content: center; font-size: 2rem; color: #3e4c59; background: #e6eef6; }
.hit .text { display: flex; flex-direction: column; min-width: 0; }
.hit .title { color: #0b4f8a; font-weight: 600; text-decoration: underline; overflow-wrap: anywhere; }
.hit .subtitle, .hit .provider { color: #3e4c59; font-size: 0.95rem; overflow-wrap: anywhere; }
.pager ul { display: flex; flex-wrap: wrap; gap: 0.25rem; list-style: none; padding: 0; }
.pager a, .pager span { display: inline-block; min-width: 2.5rem; padding: 0.35rem 0.6rem; text-align: center; border: 1px solid #d9e2ec; border-radius: 4px; }
.pager a[aria-current] { background: #0b4f8a; color: #fff; border-color: #0b4f8a; }
.side .persons ul { padding-left: 1.2rem; }
.dates { color: #3e4c59; }
.breadcrumb ol { display: flex; flex-wrap: wrap; list-style: none; padding: 0; margin: 0.5rem 0; font-size: 0.95rem; }
.breadcrumb li + li::before { content: "›"; padding: 0 0.4rem; color: #3e4c59; }
.subtitle { color: #3e4c59; margin-top: 0; }
.media { list-style: none; padding: 0; display: grid; gap: 0.75rem; grid-template-columns: repeat(auto-fill, minmax(10rem, 1fr)); }
.badge { display: inline-block; padding: 0 0.4rem; border: 1px solid #3e4c59; border-radius: 4px; font-size: 0.85rem; font-weight: 600; color: #1b1b1b; white-space: nowrap; }
.media .pic { position: relative; display: block; aspect-ratio: 4 / 3; overflow: hidden; border-radius: 4px; background: #e6eef6; color: #3e4c59; }
.media .ph { position: absolute; inset: 0; display: flex; flex-direction: column; align-items: center; justify-content: center; padding: 0.5rem; text-align: center; }
.media .ph .note { font-size: 0.9rem; }
.media .pic img { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; }
.media .caption { display: block; font-size: 0.9rem; color: #3e4c59; overflow-wrap: anywhere; }
.children { padding-left: 1.5rem; }
.formats { display: flex; flex-wrap: wrap; gap: 0.75rem; list-style: none; padding: 0; }
.note { font-size: 0.9rem; color: #3e4c59; }
.tree ul { list-style: none; padding-left: 1.25rem; margin: 0; }
.tree > ul { padding-left: 0; }
.tree li { margin: 0.2rem 0; }
.tree li.current > a { font-weight: 700; }
.tree .open { text-decoration: none; margin-left: 0.25rem; font-size: 0.9rem; }
.variants { columns: 16rem; }
.viewer-area { width: 100%; height: 60vh; min-height: 18rem; background: #1b1b1b; border-radius: 4px; }
.media audio, .media video, .files audio, .files video { display: block; width: 100%; max-width: 32rem; margin: 0.25rem 0; }
.citation { font-size: 0.95rem; overflow-wrap: anywhere; }
.bibtex { font-size: 0.85rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.downloads { padding-left: 1.2rem; }
.permalink { overflow-wrap: anywhere; }
@media (min-width: 48rem) {
  .results-layout { display: grid; grid-template-columns: minmax(0, 1fr) 18rem; gap: 2rem; }
  .item-layout { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 1fr); gap: 2rem; }
  h1 { font-size: 2rem; }
}
${EXPLORE_STYLES}/* Dark: the same layout in dark colours, each pair again at least 4.5:1. */
@media (prefers-color-scheme: dark) {
  :root { color-scheme: dark; }
  html { color: #e4e7eb; background: #12171d; }
  a { color: #8cc4ff; }
  a:hover { color: #c2e0ff; }
  a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible { outline-color: #fb923c; }
  .skip { background: #12171d; }
  header.site { background: #0b1a2a; }
  button { background: #8cc4ff; color: #0b1a2a; }
  header.site button { background: #e6eef6; color: #102a43; }
  .searchbox input[type=search], select { background: #1f2933; color: #e4e7eb; border-color: #9aa5b1; }
  footer.site { border-top-color: #323f4b; color: #cbd2d9; }
  .facet li a.active, .chip { background: #243b53; color: #e4e7eb; }
  .facet .count, .count, .dates, .subtitle, .note, .hit .subtitle, .hit .provider, .media .caption, .breadcrumb li + li::before { color: #cbd2d9; }
  .hit a { border-bottom-color: #323f4b; }
  .hit .title { color: #8cc4ff; }
  .hit .nothumb, .media .pic { background: #243b53; color: #cbd2d9; }
  .pager a, .pager span { border-color: #52606d; }
  .pager a[aria-current] { background: #8cc4ff; color: #0b1a2a; border-color: #8cc4ff; }
  .badge { border-color: #cbd2d9; color: #e4e7eb; }
  .problem { background: #3b1219; border-left-color: #f97066; }
}
/* Print: the record on paper; no navigation, search, viewer or controls; link targets written out. */
@media print {
  html { color: #000; background: #fff; font-size: 11pt; }
  header.site, footer.site, .skip, .searchbox, .pager, .viewer, .sort, .facet, .side, .active-filters, .formats, .downloads, .item-side .pager { display: none !important; }
  main { max-width: none; padding: 0; }
  a { color: #000; }
  .facts a[href^="http"]::after, .permalink a::after { content: " <" attr(href) ">"; font-size: 0.85em; overflow-wrap: anywhere; }
  .permalink a::after { content: ""; }
  .item-layout { display: block; }
  .media { grid-template-columns: repeat(3, 1fr); }
  .media .pic { break-inside: avoid; }
  h1, h2, h3 { break-after: avoid; }
  .facts dd { break-inside: avoid; }
}
`;
