// API keys: register, rotate, usage, access requests.

import { AT } from './common.ts';

export const KEY_LIMITS_EXAMPLE = { rateLimitPerMinute: 20, dailyLimit: 500, monthlyLimit: 5000, maxPageSize: 20 };

const RAW_KEY = 'ncd_EXAMPLEkeyShownOnceNeverStoredInClear0';

export const KEY_REGISTER_BODY_EXAMPLE = {
  projectName: 'Acme CRM sync',
  email: 'dev@acme.example',
  description: 'Nightly enrichment of our customer list',
};

export const KEY_CREATED_EXAMPLE = {
  raw: RAW_KEY,
  keyPrefix: 'ncd_EXAMPLEk',
  projectName: 'Acme CRM sync',
  tier: 'free',
  setupUrl: `http://localhost:3000/setup?key=${RAW_KEY}`,
  limits: KEY_LIMITS_EXAMPLE,
};

export const KEY_ROTATED_EXAMPLE = {
  raw: 'ncd_EXAMPLEreplacementKeyShownOnce00000000',
  keyPrefix: 'ncd_EXAMPLEr',
  projectName: 'Acme CRM sync',
  tier: 'free',
  setupUrl: 'http://localhost:3000/setup?key=ncd_EXAMPLEreplacementKeyShownOnce00000000',
  rotatedFrom: 'ncd_EXAMPLEk',
};

export const KEY_USAGE_EXAMPLE = {
  projectName: 'Acme CRM sync',
  tier: 'free',
  keyPrefix: 'ncd_EXAMPLEk',
  limits: { ...KEY_LIMITS_EXAMPLE, canPush: false, requireFilterOnSearch: true },
  usage: { today: 42, thisMonth: 1210, total: 8634, dailyRemaining: 458, monthlyRemaining: 3790 },
  resets: { daily: '2026-04-21T00:00:00.000Z', monthly: '2026-05-01T00:00:00.000Z' },
  history: [
    { day: '2026-04-19', count: 57 },
    { day: '2026-04-20', count: 42 },
  ],
};

export const ACCESS_REQUEST_BODY_EXAMPLE = {
  projectName: 'Acme CRM sync',
  email: 'dev@acme.example',
  organisation: 'Acme AS',
  requestedTier: 'pro',
  message: 'We enrich about 40 000 customers a month and push them to our CRM.',
};

export const ACCESS_REQUEST_CREATED_EXAMPLE = { id: '17', status: 'pending', createdAt: AT };
