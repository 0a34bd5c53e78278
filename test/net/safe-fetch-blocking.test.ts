// Every private-address form must be refused before a single byte reaches the sink, which
// listens on 127.0.0.1 and [::1] on the same port and counts hits.
import { buildConnector } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedConnector } from '../../src/net/guarded-agent.ts';
import { BlockedDestinationError, NetworkError, checkDestination, safeFetch } from '../../src/net/index.ts';
import { startServer, tableResolver, type TestServer } from './servers.ts';

let sink4: TestServer;
let sink6: TestServer;
let port: number;

beforeAll(async () => {
  // Same port on both loopbacks, so every spelling of "loopback:port" hits a counting sink.
  for (let attempt = 0; ; attempt++) {
    sink4 = await startServer('127.0.0.1');
    try {
      sink6 = await startServer('::1', undefined, sink4.port);
      break;
    } catch (err) {
      await sink4.close();
      if (attempt >= 5) throw err;
    }
  }
  port = sink4.port;
});
afterAll(async () => {
  await sink4.close();
  await sink6.close();
});
afterEach(() => {
  expect(sink4.hits + sink6.hits).toBe(0);
});

// allowedPorts 'any' so that the address, not the port, is what gets refused.
const strict = { allowPrivate: false, allowedPorts: 'any' as const, timeoutMs: 2_000 };

async function expectBlocked(p: Promise<unknown>, reason = 'private-address') {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BlockedDestinationError);
  expect((err as BlockedDestinationError).kind).toBe('blocked');
  expect((err as BlockedDestinationError).reason).toBe(reason);
}

describe('safeFetch refuses private destinations', () => {
  it.each([
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
    '0177.0.0.1',
    '[::]',
    '0',
    '[::127.0.0.1]',
    '[0:0:0:0:0:ffff:7f00:1]',
  ])('http://%s:<port>/ is blocked', async (host) => {
    await expectBlocked(safeFetch(`http://${host}:${port}/`, strict));
  });

  it('blocks a name whose resolver answers loopback', async () => {
    const resolver = tableResolver({ 'evil.test': ['127.0.0.1'] });
    await expectBlocked(safeFetch(`http://evil.test:${port}/`, { ...strict, resolver }));
  });

  it('blocks a name with mixed public and loopback answers', async () => {
    const resolver = tableResolver({ 'mixed.test': ['93.184.216.34', '::1'] });
    await expectBlocked(safeFetch(`http://mixed.test:${port}/`, { ...strict, resolver }));
  });

  it('reports a name that does not resolve as dns', async () => {
    await expectBlocked(safeFetch('http://nowhere.test/', { resolver: tableResolver({}) }), 'dns');
  });

  it('pins the vetted address: a rebinding resolver never gets us to loopback', async () => {
    let calls = 0;
    const resolver = {
      async lookup() {
        calls++;
        return [{ address: calls === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 as const }];
      },
    };
    // The public address is not reachable from the sandbox (and must not be tried): the dial
    // seam records what the guard asked for and answers it from a stand-in on 127.0.0.3.
    const standIn = await startServer('127.0.0.3', (_q, r) => r.end('public stand-in'));
    const dialled: string[] = [];
    const real = buildConnector({ timeout: 2_000 });
    const dial: typeof real = (o, cb) => {
      dialled.push(o.hostname);
      if (o.hostname !== '93.184.216.34') return cb(new Error('test dial: unexpected address'), null);
      real({ ...o, hostname: '127.0.0.3', port: String(standIn.port) }, cb);
    };
    try {
      const res = await safeFetch(`http://rebind.test:${port}/`, { ...strict, resolver, dial });
      expect(new TextDecoder().decode(res.body)).toBe('public stand-in');
      expect(res.remoteAddress).toBe('93.184.216.34');
      expect(dialled).toEqual(['93.184.216.34']);
      expect(calls).toBe(1);
      // The next lookup answers loopback: refused before any dial.
      await expectBlocked(safeFetch(`http://rebind.test:${port}/`, { ...strict, resolver, dial }));
      expect(dialled).toEqual(['93.184.216.34']);
    } finally {
      await standIn.close();
    }
  });

  it('an unreachable vetted address fails as a network error, not a fallback to loopback', async () => {
    let calls = 0;
    const resolver = {
      async lookup() {
        calls++;
        return [{ address: calls === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 as const }];
      },
    };
    const dialled: string[] = [];
    const dial: ReturnType<typeof buildConnector> = (o, cb) => {
      dialled.push(o.hostname);
      cb(Object.assign(new Error('connect ENETUNREACH'), { code: 'ENETUNREACH' }), null);
    };
    const err = await safeFetch(`http://rebind.test:${port}/`, { ...strict, timeoutMs: 1_000, resolver, dial }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).code).toBe('ENETUNREACH');
    expect(dialled.every((a) => a === '93.184.216.34')).toBe(true);
    expect(calls).toBe(1);
  });
});

describe('redirects to private destinations', () => {
  let receiver: TestServer;
  const resolver = tableResolver({ 'receiver.test': ['127.0.0.2'], localhost: ['127.0.0.1'] });

  beforeAll(async () => {
    // The receiver lives on 127.0.0.2 and only that address is allow-listed, so the first hop
    // is reachable while the sink's addresses stay forbidden.
    receiver = await startServer('127.0.0.2', (req, res) => {
      const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
      if (to) res.writeHead(302, { location: to }).end();
      else res.end('receiver');
    });
  });
  afterAll(() => receiver.close());

  const opts = () => ({ ...strict, resolver, allowedAddresses: ['127.0.0.2'], maxRedirects: 3 });

  it('follows a redirect that stays on the allowed receiver', async () => {
    const res = await safeFetch(`http://receiver.test:${receiver.port}/?to=/done`, opts());
    expect(res.status).toBe(200);
    expect(new TextDecoder().decode(res.body)).toBe('receiver');
    expect(res.redirects).toEqual([`http://receiver.test:${receiver.port}/done`]);
  });

  it.each(['127.0.0.1', 'localhost', '[::1]', '[::ffff:127.0.0.1]', '2130706433'])(
    'refuses the hop to %s',
    async (host) => {
      const before = receiver.hits;
      const to = encodeURIComponent(`http://${host}:${port}/stolen`);
      await expectBlocked(safeFetch(`http://receiver.test:${receiver.port}/?to=${to}`, opts()));
      expect(receiver.hits).toBe(before + 1);
    },
  );

  it('refuses a redirect to a non-http scheme', async () => {
    const to = encodeURIComponent('file:///etc/passwd');
    await expectBlocked(safeFetch(`http://receiver.test:${receiver.port}/?to=${to}`, opts()), 'scheme');
  });
});

describe('the guarded connector itself', () => {
  const policy = { allowPrivate: false, allowedAddresses: [] };

  function connect(hostname: string, pins = new Map<string, string[]>()) {
    const c = createGuardedConnector({ policy, pins, connectTimeoutMs: 1_000 });
    return new Promise<Error | null>((resolve) => {
      c({ hostname, host: `${hostname}:${port}`, protocol: 'http:', port: String(port) }, (err, socket) => {
        socket?.destroy();
        resolve(err);
      });
    });
  }

  it('refuses IP literals that never pass through DNS', async () => {
    for (const h of ['127.0.0.1', '::1', '[::1]', '0.0.0.0', '::ffff:7f00:1']) {
      expect(await connect(h)).toBeInstanceOf(BlockedDestinationError);
    }
  });

  it('refuses a name with no vetted address, and a pinned private one', async () => {
    expect(await connect('sink.test')).toBeInstanceOf(BlockedDestinationError);
    expect(await connect('sink.test', new Map([['sink.test', ['127.0.0.1']]]))).toBeInstanceOf(BlockedDestinationError);
  });
});

describe('checkDestination', () => {
  it('vets without connecting', async () => {
    expect(await checkDestination('https://8.8.8.8/hook')).toEqual({ ok: true, addresses: ['8.8.8.8'] });
    const resolver = tableResolver({ 'hooks.example': ['93.184.216.34', '2606:2800:220:1::1'] });
    expect(await checkDestination('https://hooks.example/x', { resolver })).toEqual({
      ok: true,
      addresses: ['93.184.216.34', '2606:2800:220:1::1'],
    });
  });

  it('names the reason for a refusal', async () => {
    expect(await checkDestination(`http://127.0.0.1:${port}/`)).toMatchObject({ ok: false, reason: 'port' });
    expect(await checkDestination('http://127.0.0.1/')).toMatchObject({ ok: false, reason: 'private-address' });
    expect(await checkDestination('ftp://8.8.8.8/')).toMatchObject({ ok: false, reason: 'scheme' });
    expect(await checkDestination('https://u:p@8.8.8.8/')).toMatchObject({ ok: false, reason: 'invalid-url' });
    expect(await checkDestination('not a url')).toMatchObject({ ok: false, reason: 'invalid-url' });
    expect(await checkDestination('https://nx.test/', { resolver: tableResolver({}) })).toMatchObject({
      ok: false,
      reason: 'dns',
    });
    expect(await checkDestination('http://127.0.0.1/', { allowPrivate: true })).toEqual({
      ok: true,
      addresses: ['127.0.0.1'],
    });
  });

  it('times out a resolver that never answers', async () => {
    const resolver = { lookup: () => new Promise<never>(() => {}) };
    expect(await checkDestination('https://slow.test/', { resolver, timeoutMs: 50 })).toMatchObject({
      ok: false,
      reason: 'timeout',
    });
  });
});
