// HTTPS through the pinned connector: we dial the vetted IP, but SNI and the certificate
// check must use the hostname from the URL.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { buildConnector } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkError, safeFetch } from '../../src/net/index.ts';
import { tableResolver } from './servers.ts';

const file = (n: string) => readFileSync(fileURLToPath(new URL(`./tls/${n}`, import.meta.url)));
const cert = file('receiver.test.crt');
const key = file('receiver.test.key');

let server: https.Server;
let port: number;
const sni: (string | false | null)[] = [];

beforeAll(async () => {
  server = https.createServer({ cert, key }, (req, res) => res.end(`tls ok ${req.headers.host}`));
  server.on('secureConnection', (s) => sni.push(s.servername));
  await new Promise<void>((r) => server.listen(0, '127.0.0.2', () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const resolver = tableResolver({ 'receiver.test': ['127.0.0.2'], 'other.test': ['127.0.0.2'] });
// The test CA is trusted only by this dialler; everything else is the real guarded path.
const dial = buildConnector({ ca: cert, timeout: 2_000 });
const opts = { resolver, dial, allowedAddresses: ['127.0.0.2'], allowedPorts: 'any' as const, timeoutMs: 3_000 };

describe('https via a pinned address', () => {
  it('verifies the certificate against the URL hostname and sends SNI', async () => {
    const res = await safeFetch(`https://receiver.test:${port}/`, opts);
    expect(new TextDecoder().decode(res.body)).toBe(`tls ok receiver.test:${port}`);
    expect(res.remoteAddress).toBe('127.0.0.2');
    expect(sni).toContain('receiver.test');
  });

  it('fails when the name does not match the certificate, though the IP is the same', async () => {
    const err = await safeFetch(`https://other.test:${port}/`, opts).catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
  });
});
