import fp from 'fastify-plugin';

/**
 * One log line per request, when its response is sent: method, URL (credentials redacted by the
 * app's serializer), status, time taken, the operation and the request id; at debug level also
 * one on arrival. Fastify's own two lines per request ("incoming request", "request completed")
 * are turned off in its options.
 */
export const requestLog = fp<{ redactUrl: (url: string) => string }>(
  async (app, { redactUrl }) => {
    // Below info (warn, error) only 5xx answers are logged: the line is made for those alone.
    const all = ['trace', 'debug', 'info'].includes(app.log.level);
    // At debug level each request is also logged on arrival (a request that hangs shows there).
    if (app.log.level === 'debug' || app.log.level === 'trace') {
      app.addHook('onRequest', (req, _reply, done) => {
        req.log.debug({ req }, `received ${req.method} ${redactUrl(req.url)}`);
        done();
      });
    }
    app.addHook('onResponse', (req, reply, done) => {
      if (!all && reply.statusCode < 500) {
        done();
        return;
      }
      const ms = Math.round(reply.elapsedTime * 10) / 10;
      const url = redactUrl(req.url);
      const operation = (req.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
      req.log[reply.statusCode >= 500 ? 'error' : 'info'](
        { method: req.method, url, status: reply.statusCode, ms, ...(operation ? { operation } : {}) },
        `${req.method} ${url} ${reply.statusCode} ${ms} ms`,
      );
      done();
    });
  },
  { name: 'mds-request-log', fastify: '5.x' },
);
