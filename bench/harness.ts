// Shared pieces of the HTTP benchmarks: the app on a loopback port with benchmark settings,
// unthrottled internal-tier keys, and latency percentiles.
import { request } from 'undici';
import { buildApp } from '../src/app.ts';
import type { NewEvent } from '../src/domain/company-events.ts';
import { loadConfig } from '../src/config/index.ts';
import { createLogger } from '../src/logger.ts';

export type Built = Awaited<ReturnType<typeof buildApp>>;

/** The real app (no demo data, no scheduler) listening on 127.0.0.1. */
export async function startBenchApp(): Promise<{ built: Built; base: string }> {
  const built = await buildApp(
    loadConfig({ ...process.env, DEMO_DATA: 'off', SYNC_SCHEDULE: 'off', LOG_LEVEL: 'warn', NODE_ENV: 'production' }),
    {
      logger: createLogger('warn'),
    },
  );
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  return { built, base: `http://127.0.0.1:${(built.app.server.address() as { port: number }).port}` };
}

/** A fresh internal-tier key with no per-minute rate limit (the benchmark measures latency, not limits). */
export async function benchKey(built: Built, label: string): Promise<string> {
  const k = await built.services.keys.register({
    projectName: `bench-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
    email: 'bench@example.com',
  });
  await built.services.keys.setTier(k.keyPrefix, 'internal');
  await built.services.keys.setLimits(k.keyPrefix, { rateLimitPerMinute: 0 });
  return k.raw;
}

export async function getJson(url: string, key: string): Promise<{ status: number; body: any }> {
  const res = await request(url, { headers: { authorization: `Bearer ${key}` } });
  const text = await res.body.text();
  return { status: res.statusCode, body: text.startsWith('{') ? JSON.parse(text) : text };
}

export async function postJson(url: string, key: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await request(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text.startsWith('{') ? JSON.parse(text) : text };
}

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  n: number;
}

export function percentiles(ms: number[]): Percentiles {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { p50: +q(0.5).toFixed(2), p95: +q(0.95).toFixed(2), p99: +q(0.99).toFixed(2), n: s.length };
}

/** `count` address-change events, as an ingest appends them, over 50 000 companies from `offset`. */
export function addressEvents(offset: number, count: number): NewEvent[] {
  return Array.from({ length: count }, (_, j) => ({
    country: 'NO',
    orgNumber: String(900_000_000 + ((offset + j) % 50_000)),
    category: 'address',
    type: 'address_changed',
    fieldsChanged: ['businessAddress.street'],
    before: { 'businessAddress.street': `Storgata ${j}` },
    after: { 'businessAddress.street': `Kirkegata ${j}` },
    source: 'Brønnøysundregistrene',
  }));
}
