// Sealing destination configs: AES-256-GCM with a random IV, bound to its row, keyed by id.
import { describe, expect, it } from 'vitest';
import {
  ConfigUnreadableError,
  destinationKeyring,
  needsReseal,
  openConfig,
  sealConfig,
} from '../../src/push/config-crypto.ts';

const SECRET = 'a-test-secret-key-of-at-least-32-characters';
const keyring = destinationKeyring(SECRET);
const config = {
  url: 'https://hooks.example/x?token=abc',
  method: 'POST',
  headers: { Authorization: 'Bearer very-secret' },
  signingSecret: 'whsec_c2VjcmV0LXNpZ25pbmcta2V5LTEyMzQ=',
};

describe('sealConfig / openConfig', () => {
  it('round-trips and keeps nothing readable in the sealed form', () => {
    const sealed = sealConfig(config, 'destination:1', keyring);
    expect(openConfig(sealed, 'destination:1', keyring)).toEqual(config);
    const text = JSON.stringify(sealed);
    for (const secret of ['very-secret', 'token=abc', 'hooks.example', 'c2VjcmV0', 'Authorization'])
      expect(text).not.toContain(secret);
    expect(Buffer.from(sealed.iv, 'base64')).toHaveLength(12);
    expect(Buffer.from(sealed.tag, 'base64')).toHaveLength(16);
    expect(sealed.keyId).toMatch(/^v1\.[0-9a-f]{12}$/);
  });

  it('uses a fresh IV every time', () => {
    const a = sealConfig(config, 'destination:1', keyring);
    const b = sealConfig(config, 'destination:1', keyring);
    expect(a.iv).not.toBe(b.iv);
    expect(a.ciphertext).not.toBe(b.ciphertext);
  });

  it('refuses a config moved to another row (AAD)', () => {
    const sealed = sealConfig(config, 'destination:1', keyring);
    expect(() => openConfig(sealed, 'destination:2', keyring)).toThrow(ConfigUnreadableError);
  });

  it('refuses tampered ciphertext, tag or IV', () => {
    const sealed = sealConfig(config, 'd', keyring);
    const flip = (b64: string) => {
      const b = Buffer.from(b64, 'base64');
      b[0] ^= 1;
      return b.toString('base64');
    };
    expect(() => openConfig({ ...sealed, ciphertext: flip(sealed.ciphertext) }, 'd', keyring)).toThrow(
      ConfigUnreadableError,
    );
    expect(() => openConfig({ ...sealed, tag: flip(sealed.tag) }, 'd', keyring)).toThrow(ConfigUnreadableError);
    expect(() => openConfig({ ...sealed, iv: flip(sealed.iv) }, 'd', keyring)).toThrow(ConfigUnreadableError);
    expect(() => openConfig({ ...sealed, iv: Buffer.alloc(8).toString('base64') }, 'd', keyring)).toThrow(/malformed/);
  });

  it('names an unknown key id when SECRET_KEY changed', () => {
    const sealed = sealConfig(config, 'd', keyring);
    const other = destinationKeyring('another-secret-key-of-at-least-32-characters');
    expect(other.current.id).not.toBe(keyring.current.id);
    expect(() => openConfig(sealed, 'd', other)).toThrow(/unknown key id/);
  });

  it('supports a key rotation: old rows open, new ones seal with the newest key', () => {
    const rotated = destinationKeyring(SECRET, [1, 2]);
    const old = sealConfig(config, 'd', keyring);
    expect(needsReseal(old, rotated)).toBe(true);
    expect(openConfig(old, 'd', rotated)).toEqual(config);
    const fresh = sealConfig(config, 'd', rotated);
    expect(fresh.keyId).toMatch(/^v2\./);
    expect(needsReseal(fresh, rotated)).toBe(false);
    expect(() => openConfig(fresh, 'd', keyring)).toThrow(ConfigUnreadableError);
  });
});
