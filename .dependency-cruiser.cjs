/**
 * The layers of src/ and what each may import (docs/architecture.md "Layers"), checked by
 * `npm run lint:layers`, which `npm test` runs first. The layers are written here once,
 * lower to higher: a layer may import those before it in LAYERS, never one after it.
 */
const LAYERS = [
  // The one config, the one error catalog, and small helpers any layer may use.
  ['core', '^src/[^/]+\\.ts$'],
  ['domain', '^src/domain/'],
  ['query', '^src/query/'],
  ['formats', '^src/(formats|media)/'],
  ['search', '^src/search/'],
  ['store', '^src/store/'],
  ['ingest', '^src/ingest/'],
  // Pages for people know no HTTP; the server imports them.
  ['web', '^src/web/'],
  ['http', '^src/http/'],
  ['cli', '^src/cli/'],
];

const upward = LAYERS.slice(0, -1).map(([name, path], i) => ({
  name: `layer-${name}`,
  comment: `${name} may not import a higher layer (${LAYERS.slice(i + 1).map(([n]) => n).join(', ')}): docs/architecture.md "Layers"`,
  severity: 'error',
  from: { path },
  to: { path: LAYERS.slice(i + 1).map(([, p]) => p) },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'store-imports-no-search',
      comment: 'The store stores what a load prepared; the search reads it through src/domain/searchFeed.ts: docs/architecture.md "Layers"',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/search/' },
    },
    {
      name: 'engine-core-alone',
      comment: 'The engine core is handed documents and queries: no schema, host, format, store or HTTP (docs/architecture.md "Layers")',
      severity: 'error',
      from: { path: '^src/search/engine/' },
      to: { path: ['^src/search/(?!engine/)', '^src/(formats|media|store|ingest|web|http|cli)/'] },
    },
    {
      name: 'schemas-below-host',
      comment: 'The concrete schemas and mappings use the engine core, not the search host (docs/architecture.md "Layers")',
      severity: 'error',
      from: { path: '^src/search/schemas/' },
      to: { path: '^src/search/(?!engine/|schemas/)' },
    },
    {
      name: 'no-circular-folders',
      comment: 'Folders depend on each other in one direction only',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // src/*.ts imports as *.js (NodeNext); resolve them to the .ts sources.
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
