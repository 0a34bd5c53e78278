// Destination configs rest as AES-256-GCM ciphertext (DESIGN rule 8: secrets never rest in
// clear). The key is derived from SECRET_KEY for this one purpose; each sealed config records
// the id of the key that sealed it, so a later key version can be introduced and old rows
// re-sealed one by one instead of all at once.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { deriveKey } from '../domain/secrets.ts';

export interface SealedConfig {
  keyId: string;
  /** base64 of the random 12-byte IV. */
  iv: string;
  /** base64 of the 16-byte GCM authentication tag. */
  tag: string;
  ciphertext: string;
}

export interface ConfigKey {
  id: string;
  key: Buffer;
}

export interface ConfigKeyring {
  /** The key new configs are sealed with. */
  current: ConfigKey;
  byId(id: string): ConfigKey | undefined;
}

/** The config cannot be opened: unknown key id (SECRET_KEY changed?) or tampered data. */
export class ConfigUnreadableError extends Error {
  constructor(reason: string) {
    super(`destination config cannot be decrypted: ${reason}`);
    this.name = 'ConfigUnreadableError';
  }
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Key ids are "v<version>.<fingerprint>": the fingerprint (a keyed hash, revealing nothing
 * about the key) tells a row sealed under another SECRET_KEY apart from a tampered one.
 */
function keyIdOf(version: number, key: Buffer): string {
  return `v${version}.${createHmac('sha256', key).update('ncd destination-config key id').digest('hex').slice(0, 12)}`;
}

/** Keys for `versions` (newest last, which seals), all derived from one SECRET_KEY. */
export function destinationKeyring(secretKey: string, versions: readonly number[] = [1]): ConfigKeyring {
  if (!versions.length) throw new Error('destinationKeyring: at least one key version');
  const keys = versions.map((v) => {
    const key = deriveKey(secretKey, 'destination-config', v);
    return { id: keyIdOf(v, key), key };
  });
  const byId = new Map(keys.map((k) => [k.id, k]));
  return { current: keys[keys.length - 1], byId: (id) => byId.get(id) };
}

/**
 * Seals a JSON value. `aad` binds the ciphertext to its row (the destination id), so a
 * sealed config copied onto another destination does not open.
 */
export function sealConfig(value: unknown, aad: string, keyring: ConfigKeyring): SealedConfig {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyring.current.key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return {
    keyId: keyring.current.id,
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    ciphertext: ciphertext.toString('base64'),
  };
}

export function openConfig(sealed: SealedConfig, aad: string, keyring: ConfigKeyring): unknown {
  const k = keyring.byId(sealed.keyId);
  if (!k) throw new ConfigUnreadableError(`unknown key id ${sealed.keyId}`);
  const iv = Buffer.from(sealed.iv, 'base64');
  const tag = Buffer.from(sealed.tag, 'base64');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new ConfigUnreadableError('malformed IV or tag');
  try {
    const decipher = createDecipheriv('aes-256-gcm', k.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(tag);
    const plain = Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]);
    return JSON.parse(plain.toString('utf8'));
  } catch {
    throw new ConfigUnreadableError('authentication failed');
  }
}

/** The additional authenticated data of a destination's config: its row id. */
export function destinationAad(destinationId: string): string {
  return `destination:${destinationId}`;
}

/** True when the config was sealed with an older key and should be re-sealed. */
export function needsReseal(sealed: SealedConfig, keyring: ConfigKeyring): boolean {
  return sealed.keyId !== keyring.current.id;
}
