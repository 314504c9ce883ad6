import net from 'node:net';

/**
 * A TCP proxy a test can cut and restore, standing between an instance and a shared server (PostgreSQL,
 * Redis) so an outage can be simulated without stopping the server other tests use.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream);
        upstream.pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });

  await listen();
  return {
    get port() {
      return port;
    },
    /** Drops every connection and refuses new ones, like a server that went away. */
    async cut() {
      const s = server;
      server = null;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => (s ? s.close(() => resolve()) : resolve()));
    },
    /** Accepts connections again on the same port. */
    async restore() {
      if (!server) await listen();
    },
    async close() {
      await this.cut();
    },
  };
}
