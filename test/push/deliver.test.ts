// One webhook request: what is sent, and how each kind of failure is classed — never with
// anything the receiver answered.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliverWebhook, MAX_RESPONSE_BYTES } from '../../src/push/deliver.ts';
import { closedPort, startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver.ts';
import { tableResolver } from '../net/servers.ts';

let receiver: WebhookReceiver;
let sink: WebhookReceiver;
const resolver = tableResolver({});
const open = { resolver, allowPrivate: true, now: new Date() };

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  sink = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await sink.close();
});
beforeEach(() => {
  receiver.reset();
  sink.reset();
});

const config = (over: Partial<Parameters<typeof deliverWebhook>[0]> = {}) => ({
  url: `${receiver.url}/hook?t=1`,
  method: 'POST' as const,
  headers: { 'X-Api-Key': 'k1' },
  ...over,
});

describe('deliverWebhook', () => {
  it('sends one request with the JSON content type and the configured headers', async () => {
    const out = await deliverWebhook(config({ method: 'PUT' }), '{"companies":[]}', open);
    expect(out).toEqual({ ok: true, status: 204 });
    expect(receiver.requests).toHaveLength(1);
    const [r] = receiver.requests;
    expect(r).toMatchObject({ method: 'PUT', url: '/hook?t=1', body: '{"companies":[]}' });
    expect(r.headers).toMatchObject({ 'content-type': 'application/json', 'x-api-key': 'k1' });
    expect(r.headers['webhook-signature']).toBeUndefined();
  });

  it('carries a webhook-id without a signing secret too, the same on every retry of a message', async () => {
    receiver.reset({ kind: 'status', status: 503 });
    expect((await deliverWebhook(config(), '{"a":1}', { ...open, msgId: 'msg_batch-7' })).ok).toBe(false);
    await deliverWebhook(config(), '{"a":1}', { ...open, msgId: 'msg_batch-7' }); // the retry
    await deliverWebhook(config(), '{"b":2}', open);
    const ids = receiver.requests.map((r) => r.headers['webhook-id']);
    expect(ids.slice(0, 2)).toEqual(['msg_batch-7', 'msg_batch-7']);
    expect(ids[2]).toMatch(/^msg_[0-9a-f-]{36}$/);
    for (const r of receiver.requests) expect(r.headers['webhook-signature']).toBeUndefined();
  });

  it('signs when a secret is set', async () => {
    const secret = 'whsec_' + Buffer.alloc(32, 3).toString('base64');
    await deliverWebhook(config({ signingSecret: secret }), '{"companies":[1]}', { ...open, now: new Date() });
    const [r] = receiver.requests;
    expect(new Webhook(secret).verify(r.body, r.headers as Record<string, string>)).toEqual({ companies: [1] });
  });

  it('classes a non-2xx answer by status, without the body', async () => {
    receiver.reset({ kind: 'status', status: 500, body: 'RECEIVER-SECRET-BODY' });
    const out = await deliverWebhook(config(), '{}', open);
    expect(out).toEqual({
      ok: false,
      failure: { class: 'http_status', status: 500, message: 'The destination answered with a non-2xx status' },
    });
    expect(JSON.stringify(out)).not.toContain('RECEIVER-SECRET');
  });

  it('reads at most 64 KB of a large answer and still succeeds', async () => {
    receiver.reset({ kind: 'status', status: 200, body: 'x'.repeat(MAX_RESPONSE_BYTES * 8) });
    expect(await deliverWebhook(config(), '{}', open)).toEqual({ ok: true, status: 200 });
  });

  it('does not follow a redirect', async () => {
    receiver.reset({ kind: 'redirect', status: 307, location: `${sink.url}/stolen` });
    const out = await deliverWebhook(config(), '{}', open);
    expect(out).toMatchObject({ ok: false, failure: { class: 'http_status', status: 307 } });
    expect(sink.hits).toBe(0);
  });

  it('times out at the deadline', async () => {
    receiver.reset({ kind: 'hang' });
    const started = Date.now();
    const out = await deliverWebhook(config(), '{}', { ...open, timeoutMs: 300 });
    expect(out).toMatchObject({ ok: false, failure: { class: 'timeout' } });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('classes a refused connection as network', async () => {
    const out = await deliverWebhook(config({ url: `http://127.0.0.1:${await closedPort()}/` }), '{}', open);
    expect(out).toMatchObject({
      ok: false,
      failure: { class: 'network', message: 'The destination could not be reached' },
      reason: 'ECONNREFUSED',
    });
  });

  it('blocks a private address unless allowed, before connecting', async () => {
    const out = await deliverWebhook(config(), '{}', { ...open, allowPrivate: false });
    expect(out).toMatchObject({ ok: false, failure: { class: 'blocked' } });
    expect(receiver.hits).toBe(0);
  });
});
