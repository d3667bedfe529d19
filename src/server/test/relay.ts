import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** A TCP relay in front of a real service that can be cut and restored, like a network outage. */
export class Relay {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  up(): Promise<void> {
    if (this.server?.listening) return Promise.resolve();
    const server = createServer((client) => {
      const upstream = createConnection(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    this.server = server;
    return new Promise((resolve) =>
      server.listen(this.port, '127.0.0.1', () => {
        const address = server.address();
        if (typeof address === 'object' && address) this.port = address.port;
        resolve();
      }),
    );
  }

  down(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
