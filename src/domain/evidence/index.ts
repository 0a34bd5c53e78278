// KYB evidence packs: canonical bytes, hash and Ed25519 seal, keys and JWKS entries.
export { canonicalJson, sha256Hex, signedPart } from './canonical.ts';
export { generateSigningKeyPem, publicJwkOf, publicKeyFrom, signingKeyFromPem, thumbprint } from './keys.ts';
export type { PublicJwk, SigningKey } from './keys.ts';
export { checkPack, sealPack } from './sign.ts';
export type { PackCheck, PackSeal } from './sign.ts';
