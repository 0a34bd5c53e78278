// A loopback TCP load balancer: each new connection goes to the next backend in turn, like a
// round-robin proxy in front of several API processes. Counts connections per backend.
import net from 'node:net';
import { pipeThrough } from './tcp-proxy.ts';

export async function startRoundRobinProxy(backends: { host: string; port: number }[]) {
  const sockets = new Set<net.Socket>();
  const connections = backends.map(() => 0);
  let next = 0;
  const server = net.createServer((client) => {
    const i = next++ % backends.length;
    connections[i]++;
    pipeThrough(client, net.connect(backends[i].port, backends[i].host), sockets);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
