// Ed25519 signing keys of evidence packs: PEM in, JWK out (RFC 8037), key ids as RFC 7638
// thumbprints, so a kid names exactly one public key and anyone can recompute it.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { canonicalJson } from './canonical.ts';

export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: PublicJwk;
}

/** RFC 7638 thumbprint of an OKP key: SHA-256 over {"crv","kty","x"} in JCS order, base64url. */
export function thumbprint(jwk: { crv: string; kty: string; x: string }): string {
  const members = canonicalJson({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  return createHash('sha256').update(members, 'utf8').digest('base64url');
}

export function publicJwkOf(key: KeyObject): PublicJwk {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  const jwk = pub.export({ format: 'jwk' }) as { kty?: string; crv?: string; x?: string };
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || !jwk.x) throw new TypeError('not an Ed25519 key');
  return {
    kty: 'OKP',
    crv: 'Ed25519',
    x: jwk.x,
    kid: thumbprint({ crv: 'Ed25519', kty: 'OKP', x: jwk.x }),
    alg: 'EdDSA',
    use: 'sig',
  };
}

/** A signing key from a PKCS#8 PEM private key; throws when it is not Ed25519. */
export function signingKeyFromPem(pem: string): SigningKey {
  const privateKey = createPrivateKey({ key: pem, format: 'pem' });
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new TypeError('not an Ed25519 private key');
  const publicJwk = publicJwkOf(privateKey);
  return { kid: publicJwk.kid, privateKey, publicJwk };
}

/** A new Ed25519 private key as PKCS#8 PEM. */
export function generateSigningKeyPem(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

/** A public key from a JWK (JWKS entry) or a PEM (SPKI public or PKCS#8 private) text. */
export function publicKeyFrom(input: string | { kty: string; crv: string; x: string }): KeyObject {
  if (typeof input !== 'string')
    return createPublicKey({ key: { kty: input.kty, crv: input.crv, x: input.x }, format: 'jwk' });
  const text = input.trim();
  if (text.startsWith('{')) return publicKeyFrom(JSON.parse(text) as { kty: string; crv: string; x: string });
  return createPublicKey({ key: text, format: 'pem' });
}
