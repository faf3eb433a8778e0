/**
 * The OpenBB Platform provider's suite (clients/openbb/tests: pytest against a live server, as
 * the Python client's), run by `npm test` and so by CI. Its mapping tests need only the Python of
 * test/python-client.test.ts; the fetchers' tests need openbb-core, from PyPI, and skip saying so
 * where it is not installed. Without such a Python the whole file skips, saying why.
 */
import { describe, expect, it } from 'vitest';
import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NEEDS = 'import pandas, httpx, pytest';

/** The first Python that has the client's packages: MDS_PYTHON, python3 on PATH, then Debian's own. */
function python(): string | null {
  const candidates = [process.env.MDS_PYTHON, 'python3', '/usr/bin/python3'].filter((p): p is string => !!p);
  return candidates.find((p) => spawnSync(p, ['-c', NEEDS], { stdio: 'ignore' }).status === 0) ?? null;
}

const PYTHON = python();
if (!PYTHON)
  console.warn(
    'No python3 with pandas, httpx and pytest: the OpenBB provider tests are skipped (apt-get install python3-pandas python3-httpx python3-pytest).',
  );
const HAS_OPENBB = PYTHON !== null && spawnSync(PYTHON, ['-c', 'import openbb_core'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!PYTHON)('the OpenBB Platform provider (pytest clients/openbb)', () => {
  it('maps the API’s records to OpenBB’s models against a live server, and runs the fetchers where openbb-core is installed', async () => {
    const { code, out } = await new Promise<{ code: number; out: string }>((resolve) => {
      const child = execFile(PYTHON!, ['-m', 'pytest', 'clients/openbb', '-q', '-rs', '-p', 'no:cacheprovider'], {
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
    expect(out).not.toMatch(/\d+ (failed|error)/);
    const passed = Number(/(\d+) passed/.exec(out)?.[1]);
    if (HAS_OPENBB) expect(passed, out).toBeGreaterThanOrEqual(6);
    else {
      expect(passed, out).toBeGreaterThanOrEqual(4);
      // What skips is the Platform's part, and it says why.
      expect(out, out).toMatch(/1 skipped/);
      expect(out).toContain('openbb-core is not installed');
      console.warn('openbb-core is not installed: the OpenBB fetchers were not run (pip install ./clients/python ./clients/openbb).');
    }
  }, 180_000);
});
