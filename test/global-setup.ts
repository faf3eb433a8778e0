/**
 * Once per `vitest run`: a directory for the run's demo templates (test/demo-templates.ts),
 * removed at the end, and dist/ built from src/ (`npm start`'s build, a no-op when current) for
 * the suites that start the server or the CLI as a process (test/serve-helpers.ts): compiled
 * JavaScript starts in two thirds of the time tsx takes, and is what `npm start` runs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { removeTemplates } from './demo-templates.js';

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'mds-demo-templates-'));
  project.provide('demoTemplates', dir);
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-changed'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return () => removeTemplates(dir, process.env.TEST_DATABASE_URL ?? '');
}
