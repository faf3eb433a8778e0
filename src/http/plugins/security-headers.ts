import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Headers that tell a browser what a response may do (docs/operations.md, "Security headers").
 *
 * - Every response: `X-Content-Type-Options: nosniff`, so a browser takes its type as given and
 *   never runs an API answer (a CSV holding markup, an error echoing a URL) as a page or script.
 * - The two pages, the explorer and the docs (`pageHeaders`): a Content-Security-Policy that
 *   allows only this origin's scripts, styles, images and requests (their bundles need nothing
 *   from another origin) and no inline script, so that a script injected into the page cannot
 *   run and read the API key the explorer keeps in localStorage; no framing (clickjacking), and
 *   no Referer sent from them.
 */

/** The pages' policy: this origin's files and API only; `data:` images (the favicon, the docs' icons). */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The docs page's: the same, but inline styles too, which Swagger UI writes into the markup it
 * renders (about 150 style attributes and a style element on a page of operations). Scripts
 * stay this origin's files only, and no style can load anything from elsewhere (img-src,
 * font-src).
 */
export const DOCS_CSP = PAGE_CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");

/** Sets the pages' headers on `reply` (the explorer's routes; the docs' routes with DOCS_CSP). */
export function pageHeaders(reply: FastifyReply, csp = PAGE_CSP): void {
  reply.header('content-security-policy', csp).header('referrer-policy', 'no-referrer').header('x-frame-options', 'DENY');
}

/** Says `X-Content-Type-Options: nosniff` on `reply` (what refuses a request before its hooks run sets it itself: errors.ts refuse). */
export const noSniff = (reply: FastifyReply): FastifyReply => reply.header('x-content-type-options', 'nosniff');

/** `X-Content-Type-Options: nosniff` on every response Fastify sends (errors and 404s too). */
export const securityHeaders = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', (_req, reply, _payload, done) => {
      noSniff(reply);
      done();
    });
  },
  { name: 'mds-security-headers', fastify: '5.x' },
);
