#!/usr/bin/env node
/**
 * Builds dist/ from src/ with esbuild: each TypeScript file transpiled on its own (no bundling,
 * no type check: `npm run typecheck` does that), and the explorer's browser code (src/explorer/)
 * bundled with its chart library into dist/explorer/ and brotli-compressed there (quality 11,
 * about half a second of the build), in a few seconds. `--if-changed` skips the
 * build when dist/ was built from the same sources (a hash of every file's path and contents), so
 * `npm start` starts at once after the first time. A build goes to a fresh directory that replaces
 * dist/ only when complete: an interrupted build leaves the previous dist/ (or none), never half.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');
const dist = join(root, 'dist');
const STAMP = '.sources';

/** Every source of the server and CLI (tests excluded) whose name passes `keep`, in a fixed order. */
function sources(keep, dir = src) {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => {
      const p = join(dir, e.name);
      if (e.isDirectory()) return sources(keep, p);
      return keep(e.name) && !e.name.endsWith('.test.ts') ? [p] : [];
    });
}

/** The explorer's browser code (src/explorer/): bundled for the browser, not transpiled for Node. */
const explorer = join(src, 'explorer');
const all = sources((name) => name.endsWith('.ts'));
const files = all.filter((f) => !f.startsWith(explorer));
/** Data the sources import (JSON), copied beside them. */
const assets = sources((name) => name.endsWith('.json')).filter((f) => !f.startsWith(explorer));
const explorerFiles = sources(() => true, explorer);
const hash = createHash('sha256');
for (const f of [...all, ...assets, ...explorerFiles]) hash.update(relative(root, f)).update('\0').update(readFileSync(f)).update('\0');
const digest = hash.digest('hex');

const stamp = join(dist, STAMP);
if (process.argv.includes('--if-changed') && existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) process.exit(0);

const started = Date.now();
const next = `${dist}.building-${process.pid}`;
rmSync(next, { recursive: true, force: true });
try {
  await build({
    entryPoints: files,
    outdir: next,
    outbase: src,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    bundle: false,
    logLevel: 'warning',
  });
  for (const f of assets) cpSync(f, join(next, relative(src, f)));
  // The explorer, bundled by the function the server uses when it runs from the sources.
  const { bundleExplorer } = await import(pathToFileURL(join(next, 'http/plugins/explorer.js')).href);
  await bundleExplorer(explorer, join(next, 'explorer'));
  writeFileSync(join(next, STAMP), digest);
  rmSync(dist, { recursive: true, force: true });
  renameSync(next, dist);
} catch (e) {
  rmSync(next, { recursive: true, force: true });
  throw e;
}
// Leftovers of builds killed before their rename (their process is gone).
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
for (const e of readdirSync(root)) {
  const m = /^dist\.building-(\d+)$/.exec(e);
  if (m && !alive(Number(m[1]))) rmSync(join(root, e), { recursive: true, force: true });
}
console.error(`built dist/ from ${files.length} sources in ${Date.now() - started} ms`);
