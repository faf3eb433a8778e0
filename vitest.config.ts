import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
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
    // Which lines of src/ the suite runs (V8's own counts), summed up after every run and kept in
    // coverage/ (coverage-summary.json, lcov.info); not a gate.
    coverage: {
      enabled: true,
      provider: 'v8',
      include: ['src/**/*.ts'],
      // The explorer runs in the browser (test/explorer.test.ts drives it in Chromium); V8 here sees only its pure modules' tests.
      exclude: ['src/**/*.test.ts', 'src/explorer/**'],
      reporter: ['text-summary', 'json-summary', 'lcovonly'],
      reportsDirectory: 'coverage',
    },
  },
});
