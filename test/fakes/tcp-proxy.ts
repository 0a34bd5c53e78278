// A loopback TCP proxy that can cut every connection and refuse new ones, to simulate a
// database outage between the API and PostgreSQL.
import net from 'node:net';

/** Pipes a client to its upstream both ways; either side closing or failing drops both. */
export function pipeThrough(client: net.Socket, upstream: net.Socket, sockets: Set<net.Socket>): void {
  sockets.add(client).add(upstream);
  client.pipe(upstream).pipe(client);
  const drop = () => {
    client.destroy();
    upstream.destroy();
    sockets.delete(client);
    sockets.delete(upstream);
  };
  client.on('error', drop).on('close', drop);
  upstream.on('error', drop).on('close', drop);
}

export async function startTcpProxy(targetHost: string, targetPort: number) {
  const sockets = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) return client.destroy();
    pipeThrough(client, net.connect(targetPort, targetHost), sockets);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      down = true;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
