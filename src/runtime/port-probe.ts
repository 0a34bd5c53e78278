// Whether the listen address is taken, asked before the slow part of start-up (migrations, the
// demo load), so a second `npm start` says so in one line at once instead of failing minutes later.
import net from 'node:net';

/** True when something already listens on host:port; other bind errors are left to the real listen. */
export function portInUse(host: string, port: number): Promise<boolean> {
  if (port === 0) return Promise.resolve(false);
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRINUSE'));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}

/** The one line a user sees when the port is taken. */
export const portInUseMessage = (host: string, port: number) =>
  `Port ${port} on ${host} is already in use (is another server running?): stop it, or start with PORT=<another port>.`;
