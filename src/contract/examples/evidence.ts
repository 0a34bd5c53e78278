// Evidence packs, the public keys and the screening audit, as the API serves them.
import { ORG, AT } from './common.ts';

const HASH = { alg: 'sha-256', value: '9f2c4be1d0a3f6e58b7c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f60718293a4b5c6' } as const;
const KID = 'q1TnCuE8gJ4kZp3v5wQy7bXr2Lm9sDf0hAoIeUtYcRk';
const VERDICT = {
  registryStatus: 'active (live from the registry)',
  screening: '1 possible match on 1 list',
  owners: '2 ultimate-owner candidates',
  possibleMatches: 1,
  ownerCandidates: 2,
};
const part = (source: string, url: string | null) => ({ source, url, retrievedAt: AT, data: {} });

export const EVIDENCE_CREATE_BODY_EXAMPLE = { country: 'NO', purpose: 'onboarding', reference: 'CASE-2026-17' };

export const EVIDENCE_PACK_EXAMPLE = {
  format: 'ncd-evidence-pack/1',
  id: 'ev_5f1c2b7e0d1a4f579d3e7b3a',
  createdAt: AT,
  subject: { orgNumber: ORG, country: 'NO', name: 'EQUINOR ASA' },
  purpose: 'onboarding',
  reference: 'CASE-2026-17',
  requester: { keyPrefix: 'ncd_EXAMPLEk', project: 'Acme KYC', via: 'rest' },
  software: { name: 'nordic-company-data', version: '0.4.0' },
  verdict: VERDICT,
  parts: {
    company: part('Brønnøysundregistrene', `https://data.brreg.no/enhetsregisteret/api/enheter/${ORG}`),
    roles: part('Brønnøysundregistrene', null),
    shareholders: part('Aksjonærregisteret', null),
    ultimateOwners: part('derived from the shareholder register', null),
    group: part('Brønnøysundregistrene', null),
    screening: part('opensanctions-default', null),
    registryStatus: part('Brønnøysundregistrene', `https://data.brreg.no/enhetsregisteret/api/enheter/${ORG}`),
  },
  sources: [{ part: 'company', source: 'Brønnøysundregistrene', url: null, retrievedAt: AT }],
  retention: { days: 3650, until: '2036-04-17T12:34:56.000Z' },
  verification: { jwks: '/.well-known/jwks.json' },
  hash: HASH,
  signature: { alg: 'Ed25519', kid: KID, value: 'u9J3X0Zb7q2mS1v8Wc4Ry6Tn5Lk0Pd9Fh3Ga2Ej7Qw1Xs8Zc4Vb6Nm0Kl5Hj2Gf' },
};

export const EVIDENCE_SUMMARY_EXAMPLE = {
  id: EVIDENCE_PACK_EXAMPLE.id,
  createdAt: AT,
  orgNumber: ORG,
  country: 'NO',
  reference: 'CASE-2026-17',
  purpose: 'onboarding',
  keyPrefix: 'ncd_EXAMPLEk',
  hash: HASH,
  kid: KID,
  expiresAt: '2036-04-17T12:34:56.000Z',
  verdict: VERDICT,
};

export const JWKS_EXAMPLE = {
  keys: [
    {
      kty: 'OKP',
      crv: 'Ed25519',
      x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
      kid: KID,
      alg: 'EdDSA',
      use: 'sig',
    },
  ],
};

export const SCREENING_AUDIT_EXAMPLE = {
  id: 42,
  at: AT,
  keyPrefix: 'ncd_EXAMPLEk',
  via: 'rest',
  operation: 'company',
  subject: { orgNumber: ORG, country: 'NO', subjects: 3 },
  lists: [{ name: 'opensanctions-default', version: '20261128000000-abc', entityCount: 301234, lastSync: AT }],
  threshold: 0.7,
  algorithm: 'ncd-screen-2.3.0',
  matchCount: 0,
  matches: [],
};
