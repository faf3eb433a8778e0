/** Once per `vitest run`: a directory for the run's demo templates (test/demo-templates.ts), removed at the end. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { removeTemplates } from './demo-templates.js';

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'mds-demo-templates-'));
  project.provide('demoTemplates', dir);
  return () => removeTemplates(dir, process.env.TEST_DATABASE_URL ?? '');
}
