import { describe, expect, it } from 'vitest';
import { decodeHtml, isHtmlType } from '../../../src/sources/web-crawler/decode.ts';

const latin1 = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));

describe('decodeHtml', () => {
  it('uses the Content-Type charset, then a <meta charset>, then UTF-8', () => {
    expect(decodeHtml(latin1('Troms\xf8'), 'text/html; charset=ISO-8859-1')).toBe('Tromsø');
    expect(decodeHtml(latin1('<meta charset="windows-1252"><p>Bod\xf8</p>'), 'text/html')).toBe(
      '<meta charset="windows-1252"><p>Bodø</p>',
    );
    expect(
      decodeHtml(latin1('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">\xe6'), undefined),
    ).toContain('æ');
    expect(decodeHtml(new TextEncoder().encode('Ålesund'), undefined)).toBe('Ålesund');
  });

  it('falls back to UTF-8 for an unknown charset label', () => {
    expect(decodeHtml(new TextEncoder().encode('Førde'), 'text/html; charset=klingon')).toBe('Førde');
  });
});

describe('isHtmlType', () => {
  it.each([
    ['text/html; charset=utf-8', true],
    ['application/xhtml+xml', true],
    [undefined, true],
    ['application/pdf', false],
    ['image/png', false],
    ['application/json', false],
  ])('%s -> %s', (type, expected) => {
    expect(isHtmlType(type)).toBe(expected);
  });
});
