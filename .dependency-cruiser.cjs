/**
 * The architecture, enforced (`npm run lint`; docs/architecture.md). Imports go one way, down
 * this list; a folder may import its own files and those of the folders it names:
 *
 *   lib <- market <- datasets <- indicators <- render <- store <- derived <- query <- http <- app
 *
 * except that store does not import render (it returns stored records and bytes), with auth on store (http, demo and app use it), ingest and demo on store and derived, and cli
 * on everything. Type-only imports count, and no import cycle is allowed anywhere. Tests beside
 * the code (*.test.ts) may compare across layers; nothing imports them.
 */
const LAYERS = {
  lib: [],
  // The explorer's browser code (served by http/plugins/explorer.ts): it knows the service only by its HTTP API.
  explorer: [],
  market: ['lib'],
  // What each dataset is, declared once (columns, units, key, record): read by every layer above.
  datasets: ['lib', 'market'],
  indicators: ['lib', 'market'],
  render: ['lib', 'market', 'indicators'],
  // The store returns stored records and bytes; what is written of them is render's (called from derived/ and query/).
  store: ['lib', 'market', 'datasets', 'indicators'],
  derived: ['lib', 'market', 'datasets', 'indicators', 'render', 'store'],
  auth: ['lib', 'store'],
  query: ['lib', 'market', 'datasets', 'indicators', 'render', 'store', 'derived'],
  http: ['lib', 'market', 'datasets', 'indicators', 'render', 'store', 'derived', 'query', 'auth'],
  ingest: ['lib', 'market', 'datasets', 'indicators', 'render', 'store', 'derived'],
  demo: ['lib', 'market', 'datasets', 'indicators', 'render', 'store', 'derived', 'auth', 'ingest'],
  app: ['lib', 'market', 'datasets', 'indicators', 'render', 'store', 'derived', 'query', 'http', 'auth', 'demo'],
  cli: ['lib', 'market', 'datasets', 'indicators', 'render', 'store', 'derived', 'query', 'http', 'auth', 'ingest', 'demo', 'app'],
};
const FOLDERS = Object.keys(LAYERS);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle (type-only imports included) ties its modules into one layer.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'src-in-folders',
      severity: 'error',
      comment: `Every module lives in one of the layer folders: ${FOLDERS.join(', ')}.`,
      from: { path: '^src/[^/]+$' },
      to: {},
    },
    ...Object.entries(LAYERS).map(([layer, below]) => ({
      name: `layer-${layer}`,
      severity: 'error',
      comment: below.length
        ? `src/${layer}/ may import only ${below.map((l) => `src/${l}/`).join(', ')} (and itself): see docs/architecture.md.`
        : `src/${layer}/ is the bottom layer: it imports no other folder of src/.`,
      from: { path: `^src/${layer}/`, pathNot: '\\.test\\.ts$' },
      to: { path: '^src/', pathNot: `^src/(${[layer, ...below].join('|')})/` },
    })),
    {
      name: 'frozen-migrations',
      severity: 'error',
      comment:
        'A migration is frozen once shipped: it imports no code of src/ (a table it needs is copied into it), so changing that code never changes what it did.',
      from: { path: '^src/store/migrations/' },
      to: { path: '^src/', pathNot: '^src/store/migrations/' },
    },
    {
      name: 'schemas-before-routes',
      severity: 'error',
      comment: 'The API schemas are named and registered once (http/schemas/registry.ts): they import no route.',
      from: { path: '^src/http/schemas/' },
      to: { path: '^src/http/routes/' },
    },
    {
      name: 'unknown-folder',
      severity: 'error',
      comment: `A folder of src/ that is not a layer: add it to LAYERS in .dependency-cruiser.cjs (${FOLDERS.join(', ')}).`,
      from: { path: '^src/', pathNot: `^src/(${FOLDERS.join('|')})/` },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
