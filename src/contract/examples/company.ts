// Company records: lookup, search/updates rows, enrich and push items.

import { ORG, AT } from './common.ts';

export const SOURCES_EXAMPLE = {
  attribution: ['Brønnøysundregistrene', 'Regnskapsregisteret', 'SSB Klass'],
  fields: {
    companyCore: 'Brønnøysundregistrene',
    roles: 'Brønnøysundregistrene',
    financials: 'Regnskapsregisteret',
    financialRatios: { source: 'Regnskapsregisteret', computed: true },
    industryLabel: 'SSB Klass',
    orgFormLabel: 'SSB Klass',
    countryLabel: 'SSB Klass',
  },
};

export const FINANCIAL_EXAMPLE = {
  orgNumber: ORG,
  regnskapstype: 'SELSKAP',
  periodFrom: '2024-01-01',
  periodTo: '2024-12-31',
  currency: 'USD',
  revenue: 72543000000,
  operatingProfit: 13001000000,
  operatingResult: 13001000000,
  netResult: 8141000000,
  equity: 41090000000,
  totalAssets: 109150000000,
  totalLiabilities: 68060000000,
  averageEmployees: null,
  profitMargin: 11.22,
  operatingMargin: 17.92,
  returnOnEquity: 19.81,
  equityRatio: 37.65,
  revenueGrowthYoY: -8.4,
};

export const ROLE_EXAMPLE = {
  roleTypeCode: 'DAGL',
  roleTypeDescription: 'Daglig leder/ adm.direktør',
  groupCode: 'DAGL',
  groupDescription: 'Daglig leder/ adm.direktør',
  personFirstName: 'Kari',
  personMiddleName: null,
  personLastName: 'Nordmann',
  personBirthYear: 1971,
  entityOrgNumber: null,
  entityName: null,
  electedBy: null,
  ownershipPercent: null,
};

export const SUB_UNIT_EXAMPLE = {
  orgNumber: '973152351',
  name: 'EQUINOR ASA AVD FORUS',
  orgFormCode: 'BEDR',
  naceCode1: '06.100',
  naceDescription1: 'Utvinning av råolje',
  employeeCount: 1800,
  addressStreet: 'Forusbeen 50',
  addressPostalCode: '4035',
  addressCity: 'STAVANGER',
  addressMunicipality: 'STAVANGER',
  addressMuniNo: '1103',
  addressLat: 58.8916,
  addressLng: 5.7211,
  startDate: '1995-03-01',
  closureDate: null,
  isDeleted: false,
};

const CORE = {
  id: '1042',
  orgNumber: ORG,
  country: 'NO',
  name: 'EQUINOR ASA',
  orgFormCode: 'ASA',
  orgFormDescription: 'Allmennaksjeselskap',
  naceCode1: '06.100',
  naceDescription1: 'Utvinning av råolje',
  naceCode2: null,
  naceDescription2: null,
  naceCode3: null,
  naceDescription3: null,
  sectorCode: '1120',
  employeeCount: 21408,
  hasRegisteredEmployees: true,
  businessAddressStreet: 'Forusbeen 50',
  businessAddressPostalCode: '4035',
  businessAddressCity: 'STAVANGER',
  businessAddressMunicipality: 'STAVANGER',
  businessAddressMuniNo: '1103',
  businessAddressCountryCode: 'NO',
  postalAddressStreet: 'Postboks 8500 Forus',
  postalAddressPostalCode: '4035',
  postalAddressCity: 'STAVANGER',
  postalAddressMunicipality: 'STAVANGER',
  postalAddressMuniNo: '1103',
  postalAddressCountryCode: 'NO',
  website: 'https://www.equinor.com',
  phone: '51 99 00 00',
  parentOrgNumber: null,
  isInGroup: true,
  foundingDate: '1972-09-18',
  registrationDate: '1995-03-12',
  registeredInVat: true,
  registeredInBiz: true,
  isBankrupt: false,
  isBeingDissolved: false,
  isInForcedDissolution: false,
  isDeleted: false,
  deletedDate: null,
  status: 'active',
  description: 'Utvinning av olje og gass, fornybar energi og lavkarbonløsninger.',
  lastSubmittedAccountsYear: '2024',
  primaryDomain: 'equinor.com',
  enrichedDomains: ['equinor.com'],
  linkedinHandle: 'equinor',
  facebookHandle: 'Equinor',
  instagramHandle: 'equinor',
  twitterHandle: 'Equinor',
  technologies: [{ name: 'Adobe Experience Manager', category: 'CMS', confidence: 0.9 }],
  hasAnyAdPixel: true,
  marketingProtected: null,
  majorityOwner: { name: 'NÆRINGS- OG FISKERIDEPARTEMENTET', orgNumber: '912660680', ownershipPct: 67, year: 2024 },
  largestShareholder: {
    name: 'NÆRINGS- OG FISKERIDEPARTEMENTET',
    orgNumber: '912660680',
    ownershipPct: 67,
    year: 2024,
  },
  createdAt: '2026-01-05T03:12:44.000Z',
  updatedAt: AT,
};

const LABELS = {
  naceName: 'Utvinning av råolje',
  orgFormName: 'Allmennaksjeselskap',
  countryName: 'Norge',
  municipalityName: 'Stavanger',
  countyCode: '11',
  countyName: 'Rogaland',
};

const DERIVED = { sizeClass: 'large', businessAddressMuni: 'Stavanger' };

// Latest year: equity ratio 37.65 % -> 28.24, margin 11.22 % -> 25, revenue -8.4 % -> 5.8,
// positive equity 15, recent filing 10: 84.
const HEALTH_RULE_EXAMPLE =
  'Sum of points from the latest two filed years: equity ratio 30, profit margin 25, revenue trend 20, positive equity 15, a recent filing 10';

export const SIGNALS_EXAMPLE = {
  financialHealthScore: 84,
  revenueCagr: 0.1217,
  ownershipConcentrationPct: 67,
  isForeignOwned: false,
  isInDebtNegotiation: false,
  explanation: {
    financialHealthScore: {
      rule: HEALTH_RULE_EXAMPLE,
      inputs: { equityRatio: 0.3765, profitMargin: 0.1122, revenueTrend: -0.084, equity: 41090000000, cap: null },
      year: 2024,
    },
    revenueCagr: {
      rule: '(latest revenue / oldest revenue)^(1 / years between) - 1',
      inputs: { oldestYear: 2020, oldestRevenue: 45818000000, latestYear: 2024, latestRevenue: 72543000000 },
      year: 2024,
    },
    ownershipConcentrationPct: {
      rule: "The largest owner's share (%) in the latest register year, all share classes",
      inputs: { largestOwnerPct: 67 },
      year: 2024,
    },
    isForeignOwned: {
      rule: 'Owners registered outside the company’s country hold more than 50 %',
      inputs: { foreignOwnedPct: 4.2 },
      year: 2024,
    },
    isInDebtNegotiation: {
      rule: 'The registry shows reconstruction or debt negotiation',
      inputs: { isInDebtNegotiation: false },
      year: null,
    },
  },
};

const SIGNALS_SOURCE = { signals: { source: 'Regnskapsregisteret', computed: true } };

/** Enrich items and push payload items. */
export const COMPANY_RECORD_EXAMPLE = {
  ...CORE,
  ...DERIVED,
  signals: SIGNALS_EXAMPLE,
  financials: [FINANCIAL_EXAMPLE],
  roles: [ROLE_EXAMPLE],
  subUnits: [SUB_UNIT_EXAMPLE],
  licenses: [],
  _sources: {
    attribution: ['Brønnøysundregistrene', 'Regnskapsregisteret'],
    fields: { ...SOURCES_EXAMPLE.fields, ...SIGNALS_SOURCE },
  },
};

export const COMPANY_LOOKUP_EXAMPLE = {
  ...CORE,
  ...LABELS,
  ...DERIVED,
  signals: SIGNALS_EXAMPLE,
  financials: [FINANCIAL_EXAMPLE],
  roles: [ROLE_EXAMPLE],
  subUnits: [SUB_UNIT_EXAMPLE],
  licenses: [],
  _sources: { ...SOURCES_EXAMPLE, fields: { ...SOURCES_EXAMPLE.fields, ...SIGNALS_SOURCE } },
};

export const COMPANY_ROW_EXAMPLE = {
  ...CORE,
  ...LABELS,
  financials: [FINANCIAL_EXAMPLE],
  roles: [ROLE_EXAMPLE],
  _sources: SOURCES_EXAMPLE,
  ...DERIVED,
};

export const ENRICH_BODY_EXAMPLES = [
  { orgNumbers: [ORG, '111111111'] },
  {
    pairs: [
      { orgNumber: ORG, country: 'NO' },
      { orgNumber: '5560000000', country: 'SE' },
    ],
  },
];

export const ENRICH_RESULT_EXAMPLE = { data: [COMPANY_RECORD_EXAMPLE], notFound: ['111111111'], unavailable: [] };
