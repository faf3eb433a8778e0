/**
 * The Python client's own suite (clients/python/tests: pytest against a live server it starts, a
 * stub for retries, docs/clients.md's walk), run by `npm run test:all` and so by CI (a process-level suite, vitest.config.ts). It needs a Python
 * with pandas, httpx and pytest (Debian: python3-pandas python3-httpx python3-pytest, as .ci/run
 * installs); without one it skips, saying so.
 */
import { describe, expect, it } from 'vitest';
import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NEEDS = 'import pandas, httpx, pytest';

/** The first Python that has the client's packages: MDS_PYTHON, python3 on PATH, then Debian's own (a pyenv's may not have them). */
function python(): string | null {
  const candidates = [process.env.MDS_PYTHON, 'python3', '/usr/bin/python3'].filter((p): p is string => !!p);
  return candidates.find((p) => spawnSync(p, ['-c', NEEDS], { stdio: 'ignore' }).status === 0) ?? null;
}

const PYTHON = python();
if (!PYTHON)
  console.warn(
    'No python3 with pandas, httpx and pytest: the Python client tests are skipped (apt-get install python3-pandas python3-httpx python3-pytest).',
  );
/** pyarrow is optional (Debian has no package of it): without it the client's Arrow tests skip, and only they. */
const PYARROW = PYTHON !== null && spawnSync(PYTHON, ['-c', 'import pyarrow'], { stdio: 'ignore' }).status === 0;
if (PYTHON && !PYARROW)
  console.warn("No pyarrow for that python3: the Python client's Arrow tests (clients/python/tests/test_arrow.py) are skipped.");

describe.skipIf(!PYTHON)('the Python client (pytest clients/python)', () => {
  it('passes its tests against a live server', async () => {
    const { code, out } = await new Promise<{ code: number; out: string }>((resolve) => {
      const child = execFile(PYTHON!, ['-m', 'pytest', 'clients/python', '-q', '-p', 'no:cacheprovider'], {
        cwd: ROOT,
        timeout: 170_000,
        env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
      });
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      child.stderr!.on('data', (d) => (out += d));
      child.on('close', (c) => resolve({ code: c ?? -1, out }));
    });
    expect(code, out).toBe(0);
    const summary = /(\d+) passed/.exec(out);
    expect(Number(summary?.[1]), out).toBeGreaterThanOrEqual(16);
    expect(out).not.toMatch(/\d+ (failed|errors?)\b/);
    // Skipped: the Arrow tests alone (their module, at once), and only without pyarrow.
    const skipped = Number(/(\d+) skipped/.exec(out)?.[1] ?? 0);
    expect(skipped, out).toBe(PYARROW ? 0 : 1);
  }, 180_000);
});
