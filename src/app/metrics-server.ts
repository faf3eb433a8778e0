import cluster from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { listenMetrics, Metrics } from '../http/plugins/metrics.js';

/**
 * Where the metrics listener (METRICS_PORT) runs: in the one process of WORKERS=1, over its own
 * registry; with WORKERS > 1 in the primary, which asks every worker for its registry at each
 * scrape and aggregates them (prom-client AggregatorRegistry: counters and histograms summed,
 * so one scrape sees the whole server).
 */
export const startMetrics = {
  /** The metrics of a serving process, registered for the primary's aggregation in a cluster worker; undefined without METRICS_PORT. */
  forWorker(cfg: Config): Metrics | undefined {
    if (cfg.metricsPort === null) return undefined;
    const metrics = new Metrics();
    if (cluster.isWorker) {
      // Constructing one makes the worker answer the primary's requests for its metrics.
      new AggregatorRegistry();
      AggregatorRegistry.setRegistries([metrics.registry]);
    }
    return metrics;
  },

  /** The listener of a single-process server, closed with `app`: call it before `app` listens (it adds a hook). */
  async single(cfg: Config, metrics: Metrics, app: FastifyInstance): Promise<void> {
    if (cfg.metricsPort === null) return;
    const server = await listenMetrics(
      cfg.metricsHost,
      cfg.metricsPort,
      cfg.metricsToken,
      () => metrics.text(),
      (err) => app.log.error({ err }, 'metrics collection failed'),
    );
    app.addHook('onClose', async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    });
  },

  /** The listener of a cluster's primary, over the aggregate of its workers. */
  async primary(cfg: Config, say: (m: string) => void): Promise<void> {
    if (cfg.metricsPort === null) return;
    const aggregate = new AggregatorRegistry();
    await listenMetrics(
      cfg.metricsHost,
      cfg.metricsPort,
      cfg.metricsToken,
      () => aggregate.clusterMetrics(),
      (err) => say(`metrics collection failed: ${err instanceof Error ? err.message : String(err)}`),
    );
  },
};
