// Standard Webhooks signatures, checked against the spec's reference library.
import { Webhook } from 'standardwebhooks';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidSigningSecret, signatureHeaders, signPayload } from '../../src/push/signing.ts';

describe('signPayload', () => {
  it('matches the published test vector', () => {
    // From the Standard Webhooks reference implementations' tests.
    const sig = signPayload(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(sig).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('verifies with the reference library for whsec_ secrets', () => {
    const secret = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');
    const body = JSON.stringify({ companies: [{ orgNumber: '923609016', name: 'Æ Ø Å' }] });
    const headers = signatureHeaders(secret, body, new Date());
    expect(headers['webhook-id']).toMatch(/^msg_/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body + ' ', headers)).toThrow();
  });

  it('verifies with the reference library for plain secrets (raw bytes)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[\x21-\x7e]{16,64}$/), fc.string(), (secret, text) => {
        const body = JSON.stringify({ text });
        const headers = signatureHeaders(secret, body, new Date());
        expect(new Webhook(secret, { format: 'raw' }).verify(body, headers)).toEqual({ text });
      }),
      { numRuns: 50 },
    );
  });
});

describe('isValidSigningSecret', () => {
  it.each([
    ['whsec_' + Buffer.alloc(24, 7).toString('base64'), true],
    ['a-plain-secret-16', true],
    ['short', false],
    ['whsec_', false],
    ['whsec_not base64!', false],
    ['whsec_' + Buffer.alloc(8).toString('base64'), false],
    ['with space in the secret', false],
    ['line\nbreak-secret-here', false],
  ])('%j -> %s', (secret, ok) => {
    expect(isValidSigningSecret(secret)).toBe(ok);
  });
});
