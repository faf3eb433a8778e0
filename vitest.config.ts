import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The suites `npm test` leaves out (MDS_TEST_TIER=fast) and `npm run test:all` runs, as CI does:
 * the process-level ones, which spend their time starting servers, clusters, a browser or Python
 * and waiting on real time (a 30 s outage, the default 11 s bounds, haproxy's checks, a replica
 * catching up) more than computing, and the one that builds the default demo market (220
 * equities, the build `npm start` makes: 20 s of CPU for one suite). Any other way of running
 * vitest (`npx vitest run FILE`) runs them too.
 */
export const SLOW_SUITES = [
  'test/faults.test.ts', // PostgreSQL stopped, frozen and killed under load (a private cluster)
  'test/haproxy.test.ts', // two servers behind haproxy
  'test/lifecycle.test.ts', // SIGTERM, dead and failing workers
  'test/replicas.test.ts', // a private primary and a streaming replica
  'test/start.test.ts', // the first start, the server and every command refusing a bad store URL
  'test/metrics.test.ts', // servers with WORKERS=1 and 2 scraped
  'test/python-client.test.ts', // pytest against a live server
  'test/explorer.test.ts', // Chromium
  'test/docs-page.test.ts', // Chromium
  'test/slab.test.ts', // issue 37's requests on the default demo market
  'test/failover.test.ts', // a private primary and replica: the primary stopped, the replica promoted
  'test/openbb-client.test.ts', // pytest of the OpenBB provider against a live server
  'test/tdx-watch.test.ts', // the built CLI watching an install
  'test/explorer-live.test.ts', // Chromium: the live banner
  'test/events-process.test.ts', // event subscribers of servers restarted, workers killed, a private replica
];

const FAST = process.env.MDS_TEST_TIER === 'fast';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(FAST ? SLOW_SUITES : [])],
    // A directory for the run's demo templates, generated once and copied (test/demo-templates.ts).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Two workers even on two cores (the default is cores - 1): much of the suite waits on
    // PostgreSQL, child processes and sockets. Files share a worker's modules (no test file
    // changes process-wide state), so the app's modules are loaded once per worker, not per file.
    maxWorkers: 2,
    isolate: false,
    // Which lines of src/ the suite runs (V8's own counts), summed up and kept in coverage/
    // (coverage-summary.json, lcov.info) by `npm run coverage` (MDS_COVERAGE=1); not a gate, and
    // off otherwise: counting makes the tests' own work about a third slower.
    coverage: {
      enabled: process.env.MDS_COVERAGE === '1',
      provider: 'v8',
      include: ['src/**/*.ts'],
      // The explorer runs in the browser (test/explorer.test.ts drives it in Chromium); V8 here sees only its pure modules' tests.
      exclude: ['src/**/*.test.ts', 'src/explorer/**'],
      reporter: ['text-summary', 'json-summary', 'lcovonly'],
      reportsDirectory: 'coverage',
    },
  },
});
