// Push must never reach a private address when ALLOW_PRIVATE_DESTINATIONS=false: every
// loopback spelling is refused when the destination is saved AND when it is called, with a
// counting sink on 127.0.0.1 and [::1] (same port) proving that not one request arrived.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { destinationAad, destinationKeyring, sealConfig } from '../../src/push/config-crypto.ts';
import { createBrregClient } from '../../src/sources/brreg/client.ts';
import { generateCompany, orgNumberFor } from '../../src/sources/brreg/generate.ts';
import { startFakeBrreg, type FakeBrreg } from '../fakes/brreg/server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver.ts';
import { http } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const PUBLIC = '93.184.216.34';
const HOSTS = [
  '127.0.0.1',
  'localhost',
  '0.0.0.0',
  '[::1]',
  '10.0.0.1',
  '169.254.169.254',
  '[::ffff:127.0.0.1]',
  '2130706433',
  '0x7f000001',
  '127.1',
  'loopback.example',
  '[::]',
  '0177.0.0.1',
];

// DNS as a mutable table; "flip.example" answers public the first time, loopback after.
const table: Record<string, string[]> = {
  localhost: ['127.0.0.1', '::1'],
  'loopback.example': ['127.0.0.1'],
  'later.example': [PUBLIC],
};
let flipCalls = 0;
const resolver = {
  async lookup(hostname: string) {
    const answers = hostname === 'flip.example' ? [flipCalls++ === 0 ? PUBLIC : '127.0.0.1'] : table[hostname];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }));
  },
};

let brreg: FakeBrreg;
let sink4: WebhookReceiver;
let sink6: WebhookReceiver;
let port: number;
let server: TestServer;
let key: string;
let projectId: number;
const ORG = orgNumberFor(1);

beforeAll(async () => {
  brreg = await startFakeBrreg();
  brreg.add(generateCompany(1, 3));
  for (let attempt = 0; ; attempt++) {
    sink4 = await startWebhookReceiver('127.0.0.1');
    try {
      sink6 = await startWebhookReceiver('::1', sink4.port);
      break;
    } catch (err) {
      await sink4.close();
      if (attempt >= 5) throw err;
    }
  }
  port = sink4.port;
  server = await startServer({
    env: { ALLOW_PRIVATE_DESTINATIONS: 'false' },
    overrides: { resolver, upstreams: { brreg: createBrregClient({ baseUrl: brreg.url, timeoutMs: 10_000 }) } },
  });
  const k = await createKey(server, { tier: 'pro', limits: { rateLimitPerMinute: 0 } });
  key = k.raw;
  projectId = (await server.services.keyAuth.authenticate(key))!.projectId;
});
afterAll(async () => {
  await server?.close();
  await sink4?.close();
  await sink6?.close();
  await brreg?.close();
});
afterEach(() => {
  expect(sink4.hits + sink6.hits).toBe(0);
});

const create = (name: string, url: string) =>
  http(server.url, 'POST', '/api/destinations', { key, body: { name, type: 'webhook', config: { url } } });
const push = (name: string) => http(server.url, 'POST', `/api/push/${name}`, { key, body: { orgNumbers: [ORG] } });
const safeName = (host: string) => 'd-' + host.replace(/[^A-Za-z0-9]/g, '_');

/** A destination stored as it was saved earlier (before the policy changed, or by an older version). */
async function storeDirectly(name: string, url: string) {
  const id = randomUUID();
  const keyring = destinationKeyring(server.config.secretKey);
  await server.ctx.repos.destinations.insert({
    id,
    projectId,
    name,
    type: 'webhook',
    isActive: true,
    config: sealConfig({ url, method: 'POST', headers: { Authorization: 'Bearer x' } }, destinationAad(id), keyring),
    now: new Date(),
  });
}

function expectBlocked(r: { status: number; body: any }) {
  expect(r.status).toBe(200);
  expect(r.body.delivered).toBe(0);
  expect(r.body.errors).toEqual([{ batch: 1, class: 'blocked', message: 'The destination address is not allowed' }]);
}

describe('save time', () => {
  it.each(HOSTS)('refuses http://%s:<sink port>/', async (host) => {
    const r = await create(safeName(host), `http://${host}:${port}/hook`);
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([{ path: 'body.config.url', message: expect.stringMatching(/public addresses/) }]);
    expect((await http(server.url, 'GET', `/api/destinations/${safeName(host)}`, { key })).status).toBe(404);
  });

  it('refuses the same hosts on https and on the default ports', async () => {
    for (const host of HOSTS) {
      for (const url of [`https://${host}/hook`, `http://${host}/hook`]) {
        const r = await create('x', url);
        expect(r.status, url).toBe(400);
      }
    }
  });
});

describe('send time', () => {
  it.each(HOSTS)('blocks a stored destination on %s before connecting', async (host) => {
    const name = `stored-${safeName(host)}`;
    await storeDirectly(name, `http://${host}:${port}/hook`);
    expectBlocked(await push(name));
  });

  it('blocks a name that resolved publicly when saved and resolves to loopback now', async () => {
    expect((await create('later', `http://later.example:${port}/hook`)).status).toBe(201);
    table['later.example'] = ['127.0.0.1'];
    expectBlocked(await push('later'));
    table['later.example'] = [PUBLIC, '::1'];
    expectBlocked(await push('later'));
  });

  it('blocks a resolver that answers public, then loopback (rebinding)', async () => {
    flipCalls = 0;
    expect((await create('flip', `http://flip.example:${port}/hook`)).status).toBe(201);
    expect(flipCalls).toBe(1);
    expectBlocked(await push('flip'));
    expect(flipCalls).toBe(2);
  });

  it('does not follow a receiver that redirects to loopback', async () => {
    // The receiver itself must be reachable, so private addresses are allowed for this case
    // alone: what stops the request is that push never follows a redirect.
    const receiver = await startWebhookReceiver('127.0.0.2');
    server.ctx.config.allowPrivateDestinations = true;
    try {
      expect((await create('redirector', `${receiver.url}/hook`)).status).toBe(201);
      for (const status of [301, 302, 303, 307, 308]) {
        receiver.reset({ kind: 'redirect', status, location: `http://127.0.0.1:${port}/stolen` });
        const r = await push('redirector');
        expect(r.body.errors).toEqual([{ batch: 1, class: 'http_status', status, message: expect.any(String) }]);
        expect(receiver.hits).toBe(1);
      }
    } finally {
      server.ctx.config.allowPrivateDestinations = false;
      await receiver.close();
    }
    // With the policy back, the same destination is refused at send time as well.
    expectBlocked(await push('redirector'));
  });
});
