// The evidence section: the Ed25519 key that signs KYB evidence packs and how long packs are kept.
// EVIDENCE_SIGNING_KEY (PKCS#8 PEM; a literal "\n" stands for a line break) wins; otherwise the
// key generated at first start into DATA_DIR/evidence-signing-key.pem (mode 0600) is used.
// Rotation: set a new key (or move the file away); the old public key stays in the store's
// key list and in /.well-known/jwks.json, so packs signed with it still verify.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateSigningKeyPem, signingKeyFromPem, type SigningKey } from '../domain/evidence/index.ts';
import { ConfigError, int, str, type Env } from './env.ts';

export interface EvidenceConfig {
  signingKey: SigningKey;
  /** Where the key came from (the secret itself is never shown). */
  keyOrigin: 'EVIDENCE_SIGNING_KEY' | 'data-dir';
  /** Days a pack is kept: 3650 (ten years, the AML record-keeping horizon) unless set. */
  retentionDays: number;
  /** Packs a project may create per UTC day, by tier (null: only the request quota applies). */
  dailyPacks: Record<'free' | 'pro' | 'enterprise' | 'internal', number | null>;
}

const DAILY_PACKS = { free: 10, pro: null, enterprise: null, internal: null };

export const EVIDENCE_KEY_FILE = 'evidence-signing-key.pem';

function parsed(pem: string, where: string): SigningKey {
  try {
    return signingKeyFromPem(pem);
  } catch {
    throw new ConfigError('EVIDENCE_SIGNING_KEY', `${where} must be an Ed25519 private key in PKCS#8 PEM`);
  }
}

export function evidence(env: Env, dataDir: string): EvidenceConfig {
  const retentionDays = int(env, 'EVIDENCE_RETENTION_DAYS', 3650, 1, 36500);
  const given = str(env, 'EVIDENCE_SIGNING_KEY');
  if (given !== undefined)
    return {
      signingKey: parsed(given.replace(/\\n/g, '\n'), 'given'),
      keyOrigin: 'EVIDENCE_SIGNING_KEY',
      retentionDays,
      dailyPacks: DAILY_PACKS,
    };
  const file = path.join(dataDir, EVIDENCE_KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, generateSigningKeyPem(), { mode: 0o600, flag: 'wx' });
      chmodSync(file, 0o600);
    } catch (e) {
      // Another process of this DATA_DIR wrote it first: use that one.
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  return {
    signingKey: parsed(readFileSync(file, 'utf8'), `stored in ${file}`),
    keyOrigin: 'data-dir',
    retentionDays,
    dailyPacks: DAILY_PACKS,
  };
}
