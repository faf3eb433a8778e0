import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** What a server's connections can be asked to do (see `trackConnections`). */
export interface Connections {
  /**
   * Shutting down: every connection not answering a request now (idle keep-alive, or one whose
   * request line and headers have not all arrived) is closed at once; the others once their
   * response is written.
   */
  drain(): void;
  /**
   * The connections open now close after their next response (idle ones at once): their
   * clients reconnect and are spread anew over the workers sharing the port.
   */
  recycle(): void;
  /** Requests being answered now. */
  inFlight(): number;
  /**
   * Runs `then` once `socket` has no request being answered (at once when it has none): what is
   * written after the responses of the requests pipelined before.
   */
  afterResponses(socket: Socket, then: () => void): void;
}

declare module 'fastify' {
  /** The server's connections (app/app.ts tracks them; the server process drains them). */
  interface FastifyInstance {
    connections: Connections;
  }
}

/** Follows `server`'s connections and the requests each is answering. */
export function trackConnections(server: Server): Connections {
  const open = new Set<Socket>();
  /** Requests being answered, by connection (more than one when pipelined). */
  const busy = new Map<Socket, number>();
  /** Connections to close after their next response. */
  const closeAfter = new WeakSet<Socket>();
  /** What to run on a connection when its last request is answered (`afterResponses`). */
  const whenIdle = new WeakMap<Socket, () => void>();
  let draining = false;
  server.on('connection', (s: Socket) => {
    open.add(s);
    s.once('close', () => {
      open.delete(s);
      busy.delete(s);
    });
  });
  // Before the application's listener, so a response can never be finished before it is counted.
  server.prependListener('request', (req, res) => {
    const s = req.socket;
    busy.set(s, (busy.get(s) ?? 0) + 1);
    if (draining || closeAfter.has(s)) {
      closeAfter.delete(s);
      if (!res.headersSent) res.setHeader('connection', 'close');
    }
    res.once('close', () => {
      const n = (busy.get(s) ?? 1) - 1;
      if (n > 0) {
        busy.set(s, n);
        return;
      }
      busy.delete(s);
      const then = whenIdle.get(s);
      whenIdle.delete(s);
      then?.();
      if (draining) s.end();
    });
  });
  return {
    drain() {
      draining = true;
      for (const s of open) if (!busy.has(s)) s.destroy();
    },
    recycle() {
      for (const s of open) if (busy.has(s)) closeAfter.add(s);
      // Node closes only the connections between requests (none half-received).
      server.closeIdleConnections();
      for (const s of open) if (!busy.has(s)) closeAfter.add(s);
    },
    inFlight: () => [...busy.values()].reduce((a, b) => a + b, 0),
    afterResponses(socket, then) {
      if (busy.has(socket)) whenIdle.set(socket, then);
      else then();
    },
  };
}
