// Redaction by name and by shape: whatever field, parameter or message carries one of our keys
// or a secret parameter, the written log line does not.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { generateRawKey } from '../src/domain/api-key.ts';
import { createLogger, redactText } from '../src/logger.ts';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { log: createLogger('debug', stream), text: () => lines.join('') };
}

describe('log redaction', () => {
  const key = generateRawKey();

  it.each([
    'api_key',
    'apikey',
    'api-key',
    'access_token',
    'refresh_token',
    'token',
    'auth',
    'password',
    'secret',
    'key',
    'code',
  ])('redacts the value of ?%s= whatever its shape', (name) => {
    const out = redactText(`/api/companies?${name}=hunter2-plain&q=fjord`);
    expect(out).toBe(`/api/companies?${name}=[redacted]&q=fjord`);
  });

  it('redacts a key-shaped value under any parameter name, in any position', () => {
    for (const url of [`/x?q=${key}`, `/x?a=1&whatever=${key}&b=2`, `/x/${key}`, `/x?q=prefix${key}suffix`]) {
      expect(redactText(url)).not.toContain(key.slice(4, 30));
    }
    expect(redactText(`/x?q=${key}&n=2`)).toBe('/x?q=[redacted]&n=2');
  });

  it('redacts a truncated or checksum-less key too (20+ characters after the prefix)', () => {
    expect(redactText(`copied ${key.slice(0, 30)} by mistake`)).toBe('copied [redacted] by mistake');
  });

  it('keeps the public key prefix (ncd_ + 8 characters) readable', () => {
    expect(redactText(`key ${key.slice(0, 12)} rotated`)).toBe(`key ${key.slice(0, 12)} rotated`);
  });

  it('removes keys from fields, nested objects, errors and messages of written lines', () => {
    const { log, text } = capture();
    log.info({ body: { projectName: key, nested: [{ deep: `x ${key} y` }] } }, 'body logged');
    log.warn({ err: new Error(`upstream echoed ${key}`) }, 'failed');
    log.info(`message with ${key} inside and ?access_token=abc123`);
    log.info({ url: `/api/companies?api_key=${key}` }, 'url');
    const out = text();
    expect(out.length).toBeGreaterThan(200);
    expect(out).not.toContain(key);
    expect(out).not.toContain(key.slice(4, 24));
    expect(out).not.toContain('abc123');
    expect(out).toContain('[redacted]');
    for (const line of out.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  });
});

describe('log redaction after decoding, and of every secret-bearing parameter name', () => {
  const key = generateRawKey();
  const percentAll = (s: string) => [...s].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
  const encodings: [string, string][] = [
    ['underscore escaped', key.replace('_', '%5F')],
    ['lower-case escape', key.replace('_', '%5f')],
    ['every byte escaped', percentAll(key)],
    ['double-encoded', key.replace('_', '%255F')],
    ['encodeURIComponent of a quoted key', encodeURIComponent(`"${key}"`)],
  ];

  it.each(encodings)('a key %s is redacted in a URL and in a message', (_how, encoded) => {
    const c = capture();
    c.log.info({ req: { method: 'GET', url: `/api/companies?q=${encoded}&x=1`, id: 'r1' } }, 'request');
    c.log.warn(`search for ${encoded} failed`);
    const text = c.text();
    expect(decodeURIComponent(decodeURIComponent(text))).not.toContain(key);
    expect(text).not.toContain(encoded);
  });

  it.each([
    'sync_secret',
    'SYNC_SECRET',
    'client_secret',
    'signingSecret',
    'x-operator-token',
    'operator_token',
    'webhook_secret',
    'secret_key',
    'private_key',
    'session_token',
    'id_token',
    'signature',
    'credentials',
    'pwd',
    'code_verifier',
    '%73ync_secret',
  ])('redacts ?%s= whatever its value', (name) => {
    const c = capture();
    c.log.info({ req: { method: 'GET', url: `/api/health?${name}=s3cr3t-value-9&q=fjord`, id: 'r1' } }, 'request');
    expect(c.text()).not.toContain('s3cr3t-value-9');
    expect(c.text()).toContain('fjord');
  });
});
