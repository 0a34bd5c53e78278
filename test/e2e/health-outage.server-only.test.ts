// Server mode only: a PostgreSQL outage between the API and the database (a loopback proxy
// cuts the connections) gives 503, and the service recovers without a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpProxy } from '../fakes/tcp-proxy.ts';
import { http } from '../helpers/http.ts';
import { createTestDatabase, startServer, type TestDatabase, type TestServer } from '../helpers/server.ts';

let db: TestDatabase;
let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
let server: TestServer;

beforeAll(async () => {
  db = await createTestDatabase();
  const target = new URL(db.env.DATABASE_URL);
  proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  const viaProxy = new URL(db.env.DATABASE_URL);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  server = await startServer({ database: { ...db, env: { ...db.env, DATABASE_URL: viaProxy.toString() } } });
});
afterAll(async () => {
  await server?.close();
  await proxy?.close();
  await db?.drop();
});

describe('health during a database outage', () => {
  it('answers 503 {status:"error"} while the database is unreachable and recovers when it is back', async () => {
    expect((await http(server.url, 'GET', '/api/health')).body).toEqual({ status: 'ok' });
    proxy.cut();
    const down = await http(server.url, 'GET', '/api/health');
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: 'error', code: 'service_unavailable', error: 'Service unavailable' });
    expect(down.headers.get('retry-after')).toBe('5');
    proxy.restore();
    let back = await http(server.url, 'GET', '/api/health');
    // the pool may hand out one connection that died with the outage; the next probe recovers
    for (let i = 0; i < 10 && back.status !== 200; i++) back = await http(server.url, 'GET', '/api/health');
    expect(back.status).toBe(200);
    expect(back.body).toEqual({ status: 'ok' });
  });

  it('answers keyed routes with 503 in the error format, never a crash, during the outage', async () => {
    proxy.cut();
    try {
      const r = await http(server.url, 'GET', '/api/keys/usage', { key: 'ncd_' + 'A'.repeat(38) });
      expect([401, 503]).toContain(r.status); // 503 service_unavailable once the key needs the database
      const k = await http(server.url, 'GET', '/api/municipalities', { key: 'ncd_' + 'B'.repeat(38) });
      expect(k.body.code).toBeDefined();
    } finally {
      proxy.restore();
    }
  });
});
