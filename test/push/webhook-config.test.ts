// The rules a webhook config must meet when saved, and what is served back.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { configWarnings, maskedConfig, validateWebhookConfig } from '../../src/push/webhook-config.ts';

const valid = (input: Parameters<typeof validateWebhookConfig>[0]) => {
  const r = validateWebhookConfig(input);
  expect(r.details).toEqual([]);
  return r.config;
};
const problems = (input: Parameters<typeof validateWebhookConfig>[0]) => validateWebhookConfig(input).details;

describe('validateWebhookConfig', () => {
  it('defaults the method to POST and normalises the URL', () => {
    expect(valid({ url: ' https://Hooks.Example.com/in#frag ' })).toEqual({
      url: 'https://hooks.example.com/in',
      method: 'POST',
      headers: {},
    });
    expect(valid({ url: 'https://x.example/', method: 'patch' }).method).toBe('PATCH');
  });

  it('refuses other methods, schemes, credentials and junk URLs', () => {
    expect(problems({ url: 'https://x.example/', method: 'GET' })).toEqual([
      { path: 'body.config.method', message: 'must be one of POST, PUT, PATCH' },
    ]);
    expect(problems({ url: 'ftp://x.example/' })[0].path).toBe('body.config.url');
    expect(problems({ url: 'https://u:p@x.example/' })[0].message).toMatch(/credentials/);
    expect(problems({ url: 'not a url' })[0].path).toBe('body.config.url');
    expect(problems({ url: 'https://x.example/' + 'a'.repeat(2100) })[0].message).toMatch(/2048/);
  });

  it.each([
    'Host',
    'content-length',
    'Transfer-Encoding',
    'CONNECTION',
    'Content-Type',
    'webhook-signature',
    'Upgrade',
  ])('refuses the reserved header %s', (name) => {
    expect(problems({ url: 'https://x.example/', headers: { [name]: 'v' } })).toEqual([
      { path: `body.config.headers.${name}`, message: `header ${name} is set by the service and cannot be configured` },
    ]);
  });

  it('refuses bad names, CR/LF, long values, duplicates and more than 20 headers', () => {
    expect(problems({ url: 'https://x.example/', headers: { 'Bad Name': 'v' } })[0].message).toMatch(/token/);
    expect(problems({ url: 'https://x.example/', headers: { 'X-A': 'a\r\nHost: evil' } })[0].message).toMatch(/CR, LF/);
    expect(problems({ url: 'https://x.example/', headers: { 'X-A': 'a\nb' } })[0].message).toMatch(/CR, LF/);
    expect(problems({ url: 'https://x.example/', headers: { 'X-A': 'x'.repeat(1025) } })[0].message).toMatch(
      /1024 bytes/,
    );
    expect(problems({ url: 'https://x.example/', headers: { 'X-A': 'x'.repeat(1024) } })).toEqual([]);
    expect(problems({ url: 'https://x.example/', headers: { 'X-A': '1', 'x-a': '2' } })[0].message).toMatch(/unique/);
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v']));
    expect(problems({ url: 'https://x.example/', headers: many })).toEqual([
      { path: 'body.config.headers', message: 'must have at most 20 entries' },
    ]);
    expect(
      problems({ url: 'https://x.example/', headers: Object.fromEntries(Object.entries(many).slice(0, 20)) }),
    ).toEqual([]);
  });

  it('refuses every header value with a CR or LF in it (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('\r', '\n', '\r\n'), fc.string(), (a, nl, b) => {
        expect(problems({ url: 'https://x.example/', headers: { 'X-Token': a + nl + b } })).not.toEqual([]);
      }),
    );
  });

  it('accepts any token name with a printable value (property)', () => {
    const reserved =
      /^(host|content-length|transfer-encoding|connection|content-type|keep-alive|upgrade|te|trailer|expect|proxy-connection|webhook-(id|timestamp|signature))$/i;
    fc.assert(
      fc.property(
        fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,40}$/).filter((n) => !reserved.test(n)),
        fc.stringMatching(/^[\x20-\x7e]{0,200}$/),
        (name, value) => {
          expect(problems({ url: 'https://x.example/', headers: { [name]: value } })).toEqual([]);
        },
      ),
    );
  });

  it('checks the signing secret', () => {
    expect(valid({ url: 'https://x.example/', signingSecret: 'a-plain-secret-16' }).signingSecret).toBe(
      'a-plain-secret-16',
    );
    expect(problems({ url: 'https://x.example/', signingSecret: 'short' })[0].path).toBe('body.config.signingSecret');
  });
});

describe('served view', () => {
  it('masks header values and never shows the signing secret', () => {
    const c = valid({
      url: 'https://x.example/',
      headers: { Authorization: 'Bearer t0ken', 'X-Tenant': 'acme' },
      signingSecret: 'a-plain-secret-16',
    });
    const view = maskedConfig(c);
    expect(view).toEqual({
      url: 'https://x.example/',
      method: 'POST',
      headers: { Authorization: '***', 'X-Tenant': '***' },
      signing: true,
    });
    expect(JSON.stringify(view)).not.toMatch(/t0ken|acme|a-plain-secret/);
  });

  it('warns about plain http only', () => {
    expect(configWarnings(valid({ url: 'http://x.example/' }))).toEqual([expect.stringMatching(/plain http/)]);
    expect(configWarnings(valid({ url: 'https://x.example/' }))).toEqual([]);
  });
});
