// Health: the public answer and the diagnostics answer.

import { AT } from './common.ts';

export const HEALTH_EXAMPLES = [
  { status: 'ok' },
  {
    status: 'ok',
    timestamp: AT,
    database: 'connected',
    engine: 'postgresql',
    records: {
      companies: 1148213,
      financials: 2710455,
      roles: 3120877,
      inspections: 98233,
      licenses: 14710,
      procurementNotices: 0,
    },
    dataSources: {
      'brreg-updates': {
        lastSync: '2026-04-20T12:30:00.000Z',
        status: 'ok',
        recordsProcessed: 124,
        lastSuccess: '2026-04-20T12:30:00.000Z',
      },
    },
  },
];
