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
