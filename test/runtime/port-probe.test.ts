// The start-up check of the listen address: a port another server holds is reported as in use, a
// free one is not, and the message is one line naming the port and the way out.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { portInUse, portInUseMessage } from '../../src/runtime/port-probe.ts';

describe('port probe', () => {
  it('tells a taken port from a free one, and leaves the free one free', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen({ port: 0, host: '127.0.0.1' }, resolve));
    const taken = (holder.address() as net.AddressInfo).port;
    expect(await portInUse('127.0.0.1', taken)).toBe(true);
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    expect(await portInUse('127.0.0.1', taken)).toBe(false);
    // The probe let go of it: a server can listen there now.
    const after = net.createServer();
    await new Promise<void>((resolve) => after.listen({ port: taken, host: '127.0.0.1' }, resolve));
    await new Promise<void>((resolve) => after.close(() => resolve()));
  });

  it('says so in one line with the port and what to do', () => {
    const line = portInUseMessage('127.0.0.1', 3000);
    expect(line).not.toContain('\n');
    expect(line).toMatch(/Port 3000 on 127\.0\.0\.1 is already in use.*PORT=/);
  });
});
