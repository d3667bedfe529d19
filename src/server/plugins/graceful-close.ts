import type { FastifyInstance } from 'fastify';

/**
 * Answers sent while shutting down close their connection, so keep-alive clients do not hold
 * the server open after their last request. Before the listener closes, the server takes in
 * what clients have already sent (see takeInWhatHasArrived).
 */
export function gracefulClose(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    await takeInWhatHasArrived(app.server);
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Takes in what clients sent before the stop, so that it is answered rather than reset (DESIGN §7,
 * decision 0009): closing the listener resets the connections still queued in the kernel, and
 * server.close() destroys every connection whose request is not parsed yet as idle. On a busy
 * event loop (PGlite runs on it) both are common, as Node accepts one queued connection per loop
 * turn and reads it on a later one. So this waits, two turns at a time, until a round brings no
 * new connection or request; at most limitMs, so that clients still connecting cannot keep the
 * server listening.
 */
async function takeInWhatHasArrived(server: FastifyInstance['server'], limitMs = 5000): Promise<void> {
  if (!server.listening) return;
  let arrivals = 0;
  const arrived = () => {
    arrivals += 1;
  };
  server.on('connection', arrived);
  server.on('request', arrived);
  const deadline = Date.now() + limitMs;
  try {
    let seen: number;
    do {
      seen = arrivals;
      await nextTurn();
      await nextTurn();
    } while (arrivals !== seen && Date.now() < deadline);
  } finally {
    server.off('connection', arrived);
    server.off('request', arrived);
  }
}
