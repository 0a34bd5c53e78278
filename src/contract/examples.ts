// Example payloads for the OpenAPI document (/docs). Each is attached to its schema with
// `examples: [...]`, and test/e2e/openapi.test.ts validates every example against the schema it
// sits on, so an example cannot drift from the contract. Company data is Equinor's public
// registry record (the example Orakel's docs use); persons, keys and URLs are invented.

const ORG = '923609016';
const AT = '2026-04-20T12:34:56.000Z';

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
  netResult: 8141000000,
  equity: 41090000000,
  totalAssets: 109150000000,
  totalLiabilities: 68060000000,
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

export const LICENSE_EXAMPLE = {
  id: '4812',
  licenseNumber: '0301-2024-00153',
  orgNumber: '912345671',
  registerType: 'Alkoholsbevilling',
  licenseTypeCode: '01SKJE',
  licenseTypeDescription: 'Skjenkebevilling',
  venueName: 'Kaffebar Grünerløkka',
  venueOrgNumber: '998877665',
  productGroups: ['Gruppe 1', 'Gruppe 2'],
  municipality: 'Oslo',
  municipalityNo: '0301',
  issuingAuthority: 'Oslo kommune',
  validFrom: '2024-07-01T00:00:00.000Z',
  validTo: '2028-06-30T00:00:00.000Z',
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
  website: 'www.equinor.com',
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

/** Enrich items and push payload items. */
export const COMPANY_RECORD_EXAMPLE = {
  ...CORE,
  financials: [FINANCIAL_EXAMPLE],
  roles: [ROLE_EXAMPLE],
  subUnits: [SUB_UNIT_EXAMPLE],
  licenses: [],
  _sources: { ...SOURCES_EXAMPLE, attribution: ['Brønnøysundregistrene', 'Regnskapsregisteret'] },
};

export const COMPANY_LOOKUP_EXAMPLE = {
  ...CORE,
  ...LABELS,
  financials: [FINANCIAL_EXAMPLE],
  roles: [ROLE_EXAMPLE],
  subUnits: [SUB_UNIT_EXAMPLE],
  licenses: [],
  _sources: SOURCES_EXAMPLE,
};

export const COMPANY_ROW_EXAMPLE = {
  ...CORE,
  ...LABELS,
  financials: [FINANCIAL_EXAMPLE],
  roles: [ROLE_EXAMPLE],
  _sources: SOURCES_EXAMPLE,
};

export const NEXT_CURSOR_EXAMPLE = 'eyJ2IjoxLCJrIjpbImVxdWlub3IgYXNhIiwxMDQyXX0.Hq3kM0xvYl8';

export function pageExample<T>(item: T) {
  return { data: [item], nextCursor: NEXT_CURSOR_EXAMPLE, hasMore: true };
}

export const ERROR_EXAMPLE = {
  error: 'Invalid request',
  code: 'validation_failed',
  details: [{ path: 'params.orgNumber', message: 'must be 9 digits with a valid check digit' }],
  requestId: '6f1c2d7e-3b4a-4c59-9e0f-1a2b3c4d5e6f',
};

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
  rotatedFrom: 'ncd_EXAMPLEk',
};

export const KEY_USAGE_EXAMPLE = {
  projectName: 'Acme CRM sync',
  tier: 'free',
  keyPrefix: 'ncd_EXAMPLEk',
  limits: { ...KEY_LIMITS_EXAMPLE, canPush: false, requireFilterOnSearch: true },
  usage: { today: 42, thisMonth: 1210, total: 8634, dailyRemaining: 458, monthlyRemaining: 3790 },
  resets: { daily: '2026-04-21T00:00:00.000Z', monthly: '2026-05-01T00:00:00.000Z' },
};

export const ACCESS_REQUEST_BODY_EXAMPLE = {
  projectName: 'Acme CRM sync',
  email: 'dev@acme.example',
  organisation: 'Acme AS',
  requestedTier: 'pro',
  message: 'We enrich about 40 000 customers a month and push them to our CRM.',
};

export const ACCESS_REQUEST_CREATED_EXAMPLE = { id: '17', status: 'pending', createdAt: AT };

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

export const MUNICIPALITIES_EXAMPLE = {
  data: [
    { countyCode: '03', countyName: 'Oslo', municipalities: [{ code: '0301', name: 'Oslo' }] },
    {
      countyCode: '11',
      countyName: 'Rogaland',
      municipalities: [
        { code: '1103', name: 'Stavanger' },
        { code: '1108', name: 'Sandnes' },
      ],
    },
  ],
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

export const WEB_PROFILE_EXAMPLE = {
  summary: { confirmed: 120000, ambiguous: 8000, rejected: 4500 },
  total: 132500,
  limit: 50,
  offset: 0,
  data: [
    {
      orgNumber: '912345671',
      companyName: 'KAFFEBAR AS',
      status: 'confirmed',
      confidence: 92,
      primaryDomain: 'kaffebar.no',
      linkedinHandle: 'kaffebar-as',
      facebookHandle: null,
      confirmedDomains: ['kaffebar.no'],
      candidates: [
        {
          domain: 'kaffebar.no',
          host: 'www.kaffebar.no',
          origin: 'brreg-website',
          status: 'confirmed',
          score: 92,
          ledger: [
            { signal: 'origin', points: 40, note: 'website reported to the registry' },
            { signal: 'org-number', points: 40, note: 'org number 912345671 on the page' },
            { signal: 'name-in-title', points: 12, note: 'title names the company' },
          ],
          sharedByCompanies: 1,
          url: 'https://www.kaffebar.no/',
          finalUrl: 'https://www.kaffebar.no/',
          httpStatus: 200,
          redirects: [],
          error: null,
          errorCode: null,
          title: 'Kaffebar – kaffe og kaker på Grünerløkka',
          signals: {
            reachable: true,
            orgNumberOnPage: true,
            otherOrgNumbers: [],
            nameOnPage: true,
            nameInTitle: true,
            nameIsShort: false,
            parkedMarkers: [],
            defaultPageMarkers: [],
            finalDomain: 'kaffebar.no',
            redirectedToOtherDomain: false,
          },
          redirectsToCandidate: null,
          probedAt: '2026-04-19T02:10:00.000Z',
        },
      ],
      stage: 'done',
      completedAt: '2026-04-19T02:10:05.000Z',
      brregWebsite: 'www.kaffebar.no',
      orgForm: 'AS',
      city: 'OSLO',
      employees: 12,
    },
  ],
};

export const INSPECTION_EXAMPLE = {
  id: '88213',
  orgNumber: '912345671',
  name: 'Kaffebar AS',
  postnr: '0150',
  totalRating: 0,
  date: '2026-02-14T00:00:00.000Z',
  office: 'Region Stor-Oslo',
  municipality: 'Oslo',
  municipalityNo: '0301',
  upstreamId: 'Z2602141030219990111KDDBT',
  venueId: 'Z0601051347188430269OGPIQ',
  address: 'Markveien 35',
  poststed: 'OSLO',
  inspectionType: 'ordinary',
  themes: [
    {
      number: 1,
      nameNo: 'Rutiner og ledelse',
      nameNn: 'Rutinar og leiing',
      grade: 0,
      applicable: true,
      assessed: true,
    },
    { number: 2, nameNo: 'Lokaler og utstyr', nameNn: 'Lokale og utstyr', grade: 1, applicable: true, assessed: true },
    {
      number: 3,
      nameNo: 'Mathåndtering og tilberedning',
      nameNn: 'Mathandtering og tilverking',
      grade: 0,
      applicable: true,
      assessed: true,
    },
    {
      number: 4,
      nameNo: 'Merking og sporbarhet',
      nameNn: 'Merking og sporbarheit',
      grade: 4,
      applicable: false,
      assessed: false,
    },
  ],
};
