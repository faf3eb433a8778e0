import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pageHeaders } from './security-headers.js';
import fp from 'fastify-plugin';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { build } from 'esbuild';

/** The explorer's files as served: the page, its script and its style sheet. */
export interface ExplorerAssets {
  html: string;
  js: Buffer;
  css: Buffer;
}

const ENTRY = 'main.ts';
const PAGE = 'index.html';

/**
 * Bundles the explorer (src/explorer/, browser code) with lightweight-charts into one script and
 * one style sheet: into `outdir` at build time (scripts/build.mjs), else in memory. Everything it
 * needs is in the bundle: the page loads nothing from another origin and works offline.
 */
export async function bundleExplorer(sourceDir: string, outdir?: string): Promise<{ js: Buffer; css: Buffer }> {
  const result = await build({
    entryPoints: { app: join(sourceDir, ENTRY) },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome100', 'firefox100', 'safari15'],
    minify: true,
    legalComments: 'none',
    outdir: outdir ?? '/',
    write: outdir !== undefined,
    logLevel: 'warning',
  });
  if (outdir !== undefined) {
    copyFileSync(join(sourceDir, PAGE), join(outdir, PAGE));
    return { js: readFileSync(join(outdir, 'app.js')), css: readFileSync(join(outdir, 'app.css')) };
  }
  const file = (ext: string) => Buffer.from(result.outputFiles!.find((f) => f.path.endsWith(`app.${ext}`))!.contents);
  return { js: file('js'), css: file('css') };
}

/**
 * The explorer's files: those bundled beside this module at build time (dist/explorer/), or,
 * when running from the sources (tests, tsx), bundled from src/explorer/ on first use.
 */
async function loadAssets(): Promise<ExplorerAssets> {
  const dir = fileURLToPath(new URL('../../explorer/', import.meta.url));
  const built = existsSync(join(dir, 'app.js'));
  const { js, css } = built
    ? { js: readFileSync(join(dir, 'app.js')), css: readFileSync(join(dir, 'app.css')) }
    : await bundleExplorer(dir);
  const version = createHash('sha256').update(js).update(css).digest('base64url').slice(0, 12);
  const html = readFileSync(join(dir, PAGE), 'utf8').replaceAll('%VERSION%', version);
  return { html, js, css };
}

/**
 * /explorer: a chart and market explorer drawn from the API itself (src/explorer/). The page and
 * its two files are public and static (cached five minutes, tagged by their bytes, compressed),
 * under the pages' Content-Security-Policy (security-headers.ts); every number on it comes from
 * the API, with the key the user enters, kept in the browser.
 */
export const explorer = fp(
  async (app: FastifyInstance) => {
    let assets: Promise<ExplorerAssets> | null = null;
    const get = () => (assets ??= loadAssets().catch((e) => ((assets = null), Promise.reject(e))));
    const hide = { schema: { hide: true } };
    const serve = (type: string, body: (a: ExplorerAssets) => string | Buffer) => async (_req: FastifyRequest, reply: FastifyReply) => {
      pageHeaders(reply);
      return reply.type(type).send(body(await get()));
    };
    app.get(
      '/explorer',
      hide,
      serve('text/html; charset=utf-8', (a) => a.html),
    );
    app.get(
      '/explorer/app.js',
      hide,
      serve('text/javascript; charset=utf-8', (a) => a.js),
    );
    app.get(
      '/explorer/app.css',
      hide,
      serve('text/css; charset=utf-8', (a) => a.css),
    );
  },
  { name: 'mds-explorer', fastify: '5.x' },
);
