/**
 * The site's icon, served at /favicon.svg and, for browsers that ask for it without a link,
 * /favicon.ico (docs/pages.md): a framed picture in the header's colours.
 */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="6" fill="#102a43"/>
<rect x="6" y="8" width="20" height="16" rx="2" fill="none" stroke="#fff" stroke-width="2"/>
<path d="M8 22l6-7 4 4 3-3 3 6z" fill="#e6eef6"/>
<circle cx="20.5" cy="12.5" r="2" fill="#e6eef6"/>
</svg>
`;
