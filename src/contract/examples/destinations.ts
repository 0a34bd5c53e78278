// Push destinations and a push call.

import { ORG, AT } from './common.ts';

export const DESTINATION_CREATE_EXAMPLE = {
  name: 'crm-webhook',
  type: 'webhook',
  config: {
    url: 'https://hooks.acme.example/ncd',
    method: 'POST',
    headers: { Authorization: 'Bearer token-for-the-receiver' },
    signingSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  },
  isActive: true,
};

export const DESTINATION_UPDATE_EXAMPLE = { isActive: false };

export const DESTINATION_EXAMPLE = {
  id: '0b9c7f4e-8d1a-4f6b-9a55-2e3c4d5f6a7b',
  name: 'crm-webhook',
  type: 'webhook',
  isActive: true,
  createdAt: AT,
  updatedAt: AT,
  config: { url: 'https://hooks.acme.example/ncd', method: 'POST', headers: { Authorization: '***' }, signing: true },
};

export const PUSH_BODY_EXAMPLE = { orgNumbers: [ORG, '111111111'] };

export const PUSH_RESULT_EXAMPLE = {
  destination: 'crm-webhook',
  requested: 2,
  delivered: 1,
  notFound: ['111111111'],
  unavailable: [],
  errors: [],
};
