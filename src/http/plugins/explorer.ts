import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PAGE_CSP, pageHeaders } from './security-headers.js';
import fp from 'fastify-plugin';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { brotliCompressSync, constants as zc } from 'node:zlib';
import { build } from 'esbuild';
import { notFound } from '../../lib/errors.js';
import { negotiate } from './http-cache.js';

/** One file of the explorer as served: its bytes, brotli-compressed once, and its version (a hash of its bytes). */
export interface ExplorerFile {
  type: string;
  body: Buffer;
  br: Buffer;
  version: string;
}

/**
 * The explorer's files as served: the page (with the early script inline) and its policy, which
 * lets that one inline script run by its hash; its scripts and style sheet by name (`app.js`).
 */
export interface ExplorerAssets {
  html: string;
  csp: string;
  files: Map<string, ExplorerFile>;
}

const ENTRIES = { app: 'main.ts', early: 'early.ts' };
const PAGE = 'index.html';
/** The early script (early.ts): inlined into the page, never served on its own. */
const EARLY = 'early.js';
/** The files served, by name: the main script and its style sheet. */
const FILES: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};
/** A versioned name: `app.<version>.js`, the version 12 characters of base64url. */
const VERSIONED = /^(app)\.([A-Za-z0-9_-]{12})\.(js|css)$/;

/** Brotli at its best (quality 11): done once, at build time or on first use. */
const compress = (b: Buffer): Buffer =>
  brotliCompressSync(b, {
    params: { [zc.BROTLI_PARAM_QUALITY]: 11, [zc.BROTLI_PARAM_MODE]: zc.BROTLI_MODE_TEXT, [zc.BROTLI_PARAM_SIZE_HINT]: b.length },
  });

/**
 * Bundles the explorer (src/explorer/, browser code) with lightweight-charts into its main
 * script and style sheet, and its early script (early.ts, inlined into the page) on its own:
 * into `outdir` at build time (scripts/build.mjs), with each served file's brotli form beside it
 * (`app.js.br`), else in memory.
 * Everything it needs is in the bundles: the page loads nothing from another origin and works offline.
 */
export async function bundleExplorer(sourceDir: string, outdir?: string): Promise<Map<string, Buffer>> {
  const result = await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(sourceDir, file)])),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome100', 'firefox100', 'safari15'],
    minify: true,
    legalComments: 'none',
    outdir: outdir ?? '/',
    write: false,
    logLevel: 'warning',
  });
  const files = new Map(
    [...Object.keys(FILES), EARLY].map((name) => [
      name,
      Buffer.from(result.outputFiles.find((f) => f.path.endsWith(`/${name}`))!.contents),
    ]),
  );
  if (outdir !== undefined) {
    mkdirSync(outdir, { recursive: true });
    copyFileSync(join(sourceDir, PAGE), join(outdir, PAGE));
    for (const [name, body] of files) {
      writeFileSync(join(outdir, name), body);
      if (name in FILES) writeFileSync(join(outdir, `${name}.br`), compress(body));
    }
  }
  return files;
}

const versionOf = (b: Buffer) => createHash('sha256').update(b).digest('base64url').slice(0, 12);
/** A file's versioned path, as the page names it. */
const versionedPath = (name: string, version: string) => `/explorer/${name.replace(/\.(js|css)$/, `.${version}.$1`)}`;

/**
 * The explorer's files: those bundled beside this module at build time (dist/explorer/, with
 * their brotli forms), or, when running from the sources (tests, tsx), bundled from
 * src/explorer/ and compressed on first use. The page names each file by its version.
 */
async function loadAssets(): Promise<ExplorerAssets> {
  const dir = fileURLToPath(new URL('../../explorer/', import.meta.url));
  const names = Object.keys(FILES);
  const built = existsSync(join(dir, EARLY)) && names.every((name) => existsSync(join(dir, name)) && existsSync(join(dir, `${name}.br`)));
  const bodies = built ? new Map([...names, EARLY].map((name) => [name, readFileSync(join(dir, name))])) : await bundleExplorer(dir);
  const files = new Map<string, ExplorerFile>();
  for (const name of names) {
    const body = bodies.get(name)!;
    files.set(name, {
      type: FILES[name],
      body,
      br: built ? readFileSync(join(dir, `${name}.br`)) : compress(body),
      version: versionOf(body),
    });
  }
  // The early script, inline: it asks for the chart's data before any other file of the page has arrived.
  const early = bodies.get(EARLY)!.toString('utf8').trim();
  if (/<\/script/i.test(early)) throw new Error('the early script cannot be inlined: it holds </script');
  let html = readFileSync(join(dir, PAGE), 'utf8').replace(`%${EARLY}%`, () => early);
  for (const [name, f] of files) html = html.replaceAll(`%${name}%`, versionedPath(name, f.version));
  return { html, csp: inlineScriptCsp(early), files };
}

/** The pages' policy, with one inline script allowed by its SHA-256 (CSP 3 hash source): no other inline or injected script runs. */
export const inlineScriptCsp = (script: string): string =>
  PAGE_CSP.replace("script-src 'self'", `script-src 'self' 'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`);

/** Sends a file, brotli-compressed when the client accepts it (else as is: http-cache.ts may gzip it). */
function sendFile(req: FastifyRequest, reply: FastifyReply, f: ExplorerFile) {
  pageHeaders(reply);
  reply.type(f.type);
  if (negotiate(req.headers['accept-encoding']) !== 'br') return reply.send(f.body);
  return reply.header('content-encoding', 'br').send(f.br);
}

/**
 * /explorer: a chart and market explorer drawn from the API itself (src/explorer/). The page and
 * its files are public and static, under the pages' Content-Security-Policy
 * (security-headers.ts); every number on it comes from the API, with the key the user enters,
 * kept in the browser. The page (cached five minutes) holds the early script (early.ts) inline,
 * allowed by its hash in the page's policy, and names its other files by version
 * (`/explorer/app.<version>.js`): those are kept a year, immutable, and a name of another
 * version (a page cached before a deploy) is redirected to the current one. Files are sent
 * brotli-compressed once at build time when the client accepts it. The plain names
 * (`/explorer/app.js`) are served too, cached five minutes.
 */
export const explorer = fp(
  async (app: FastifyInstance) => {
    let assets: Promise<ExplorerAssets> | null = null;
    const get = () => (assets ??= loadAssets().catch((e) => ((assets = null), Promise.reject(e))));
    const hide = { schema: { hide: true } };
    app.get('/explorer', hide, async (_req, reply) => {
      const a = await get();
      pageHeaders(reply, a.csp);
      return reply.type('text/html; charset=utf-8').send(a.html);
    });
    for (const name of Object.keys(FILES))
      app.get(`/explorer/${name}`, hide, async (req, reply) => sendFile(req, reply, (await get()).files.get(name)!));
    app.get<{ Params: { file: string } }>(
      '/explorer/:file',
      { ...hide, config: { behaviour: { cache: 'immutable' } } },
      async (req, reply) => {
        const m = VERSIONED.exec(req.params.file);
        const name = m && `${m[1]}.${m[3]}`;
        const f = name ? (await get()).files.get(name) : undefined;
        if (!name || !f) throw notFound(`No operation at GET /explorer/${req.params.file}`);
        if (m![2] === f.version) return sendFile(req, reply, f);
        // Another version's name: the current file (not kept: the name may be current again after a rollback).
        pageHeaders(reply);
        return reply.header('cache-control', 'no-cache').redirect(versionedPath(name, f.version), 302);
      },
    );
  },
  { name: 'mds-explorer', fastify: '5.x' },
);
