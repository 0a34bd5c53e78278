// Shareholders, holdings by owner and the corporate group tree.

import { ORG } from './common.ts';

export const SHAREHOLDERS_EXAMPLE = {
  data: [
    {
      shareholderName: 'NÆRINGS- OG FISKERIDEPARTEMENTET',
      shareholderOrgNumber: '912660680',
      shareholderType: 'company',
      postalCode: '0032',
      location: 'OSLO',
      countryCode: 'NO',
      shareClass: 'Ordinære aksjer',
      shareCount: 1867621466,
      totalSharesInCompany: 2787574286,
      year: 2024,
      ownershipPct: 67,
    },
    {
      shareholderName: 'Kari Nordmann',
      shareholderType: 'person',
      shareholderBirthYear: 1971,
      shareClass: 'Ordinære aksjer',
      shareCount: 1200,
      totalSharesInCompany: 2787574286,
      year: 2024,
      ownershipPct: 0,
    },
  ],
  availableYears: [2024, 2023, 2022],
};

export const HOLDINGS_EXAMPLE = {
  shareholderOrgNumber: ORG,
  data: [
    {
      orgNumber: '987654321',
      companyName: 'EQUINOR ENERGY AS',
      orgFormCode: 'AS',
      employeeCount: 4500,
      shareClass: 'Ordinære aksjer',
      shareCount: 1000,
      totalSharesInCompany: 1000,
      year: 2024,
      ownershipPct: 100,
    },
  ],
};

export const GROUP_EXAMPLE = {
  root: {
    orgNumber: ORG,
    name: 'EQUINOR ASA',
    orgFormCode: 'ASA',
    employeeCount: 21408,
    children: [
      { orgNumber: '987654321', name: 'EQUINOR ENERGY AS', orgFormCode: 'AS', employeeCount: 4500, children: [] },
    ],
  },
  totalMembers: 2,
  _sources: {
    attribution: ['Brønnøysundregistrene'],
    fields: { companyCore: 'Brønnøysundregistrene', groupHierarchy: 'Brønnøysundregistrene' },
  },
};
