// Sealing and checking an evidence pack. The hash is SHA-256 (hex) of the canonical bytes
// (canonical.ts); the signature is pure Ed25519 (RFC 8032) over the same bytes, base64url. A
// pack verifies only when its file is exactly the canonical form of the whole pack (so no byte
// can change, not even outside the signed part), the hash matches and the signature holds for
// the key its kid names.
import { sign, verify, type KeyObject } from 'node:crypto';
import { canonicalJson, sha256Hex, signedPart } from './canonical.ts';
import type { SigningKey } from './keys.ts';

export interface PackSeal {
  hash: { alg: 'sha-256'; value: string };
  signature: { alg: 'Ed25519'; kid: string; value: string };
}

/** The pack with its hash and signature, and its exact text as stored and served. */
export function sealPack<T extends Record<string, unknown>>(unsigned: T, key: SigningKey) {
  const bytes = canonicalJson(unsigned);
  const seal: PackSeal = {
    hash: { alg: 'sha-256', value: sha256Hex(bytes) },
    signature: {
      alg: 'Ed25519',
      kid: key.kid,
      value: sign(null, Buffer.from(bytes, 'utf8'), key.privateKey).toString('base64url'),
    },
  };
  const pack = { ...unsigned, ...seal };
  return { pack, text: canonicalJson(pack), seal };
}

export interface PackCheck {
  ok: boolean;
  /** Each check with a short reason when it failed. */
  checks: { name: 'json' | 'canonical' | 'hash' | 'signature'; ok: boolean; detail: string }[];
  id?: string;
  createdAt?: string;
  subject?: unknown;
  kid?: string;
  hash?: string;
}

const B64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Checks a pack's text against the public keys by kid (JWKS or one given key). `anyKey` is a
 * single key given by its holder: it is tried whatever kid the pack names.
 */
export function checkPack(text: string, keys: { byKid: Map<string, KeyObject>; anyKey?: KeyObject }): PackCheck {
  const checks: PackCheck['checks'] = [];
  const done = (extra: Partial<PackCheck> = {}): PackCheck => ({ ok: checks.every((c) => c.ok), checks, ...extra });
  let pack: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    pack = parsed as Record<string, unknown>;
    checks.push({ name: 'json', ok: true, detail: 'the file is one JSON object' });
  } catch (e) {
    checks.push({ name: 'json', ok: false, detail: `the file is not a JSON object (${(e as Error).message})` });
    return done();
  }
  const hash = pack.hash as { alg?: unknown; value?: unknown } | undefined;
  const signature = pack.signature as { alg?: unknown; kid?: unknown; value?: unknown } | undefined;
  const info = {
    id: typeof pack.id === 'string' ? pack.id : undefined,
    createdAt: typeof pack.createdAt === 'string' ? pack.createdAt : undefined,
    subject: pack.subject,
    kid: typeof signature?.kid === 'string' ? signature.kid : undefined,
    hash: typeof hash?.value === 'string' ? hash.value : undefined,
  };

  const canonical = canonicalJson(pack) === text.replace(/\r?\n$/, '');
  checks.push({
    name: 'canonical',
    ok: canonical,
    detail: canonical
      ? 'the file is the RFC 8785 form of the pack'
      : 'the file differs from the RFC 8785 form of the pack (changed or re-formatted)',
  });

  const bytes = canonicalJson(signedPart(pack));
  const computed = sha256Hex(bytes);
  const hashOk = hash?.alg === 'sha-256' && hash.value === computed;
  checks.push({
    name: 'hash',
    ok: hashOk,
    detail: hashOk ? `sha-256 ${computed}` : `sha-256 of the pack is ${computed}, the pack says ${String(hash?.value)}`,
  });

  let sigOk = false;
  let sigDetail = 'no Ed25519 signature in the pack';
  if (signature?.alg === 'Ed25519' && typeof signature.value === 'string' && B64URL.test(signature.value)) {
    const raw = Buffer.from(signature.value, 'base64url');
    const key = keys.anyKey ?? (info.kid ? keys.byKid.get(info.kid) : undefined);
    if (raw.length !== 64 || raw.toString('base64url') !== signature.value)
      sigDetail = 'the signature is not 64 bytes in base64url';
    else if (!key) sigDetail = `no public key with kid ${String(info.kid)}`;
    else {
      sigOk = verify(null, Buffer.from(bytes, 'utf8'), key, raw);
      sigDetail = sigOk
        ? `Ed25519 signature valid for kid ${String(info.kid)}`
        : 'the Ed25519 signature does not match the pack';
    }
  }
  checks.push({ name: 'signature', ok: sigOk, detail: sigDetail });
  return done(info);
}
