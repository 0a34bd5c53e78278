// The company record and its parts. Fields not declared here never leave the server.
import { Type, type TSchema } from 'typebox';
import { industryFigures, placeFigures } from './market-context.ts';
import {
  COMPANY_LOOKUP_EXAMPLE,
  COMPANY_RECORD_EXAMPLE,
  COMPANY_ROW_EXAMPLE,
  FINANCIAL_EXAMPLE,
  LICENSE_EXAMPLE,
  ROLE_EXAMPLE,
  SOURCES_EXAMPLE,
  SUB_UNIT_EXAMPLE,
} from './examples.ts';
import { companyProcurementFields, ProcurementNotice } from './procurement.ts';
import { derivedFields, Signals } from './company-derived.ts';

// Nullable scalars as JSON Schema type arrays (OpenAPI 3.1): fast-json-stringify serialises
// them directly, where an anyOf would be tried branch by branch for every value.
function N<T extends TSchema>(t: T) {
  const { type, ...rest } = t as unknown as { type: string };
  return Type.Unsafe<import('typebox').Static<T> | null>({ ...rest, type: [type, 'null'] });
}
const Str = N(Type.String());
const Int = N(Type.Integer());
const Num = N(Type.Number());
const Bool = N(Type.Boolean());
const DateStr = N(Type.String({ format: 'date' }));

const Sources = Type.Object(
  {
    attribution: Type.Array(Type.String(), { description: 'Source names, deduplicated, for a "Data via" footer' }),
    // Values are a source name or {source, computed: true}; left untyped so the serializer
    // need not try the two shapes for every value.
    fields: Type.Record(
      Type.String(),
      Type.Unsafe<string | { source: string; computed: boolean }>({
        description: 'A source name, or {source, computed: true}',
      }),
      {
        description:
          'Field group (companyCore, roles, financials, financialRatios, industryLabel, orgFormLabel, countryLabel, countyEnrichment, groupHierarchy, shareholders, domain, socialHandles, technologies) -> source; absent when the data is absent',
      },
    ),
  },
  { $id: 'Sources', examples: [SOURCES_EXAMPLE] },
);

const Financial = Type.Object(
  {
    orgNumber: Type.String(),
    regnskapstype: Type.String({ description: 'SELSKAP (the company) or KONSERN (group accounts)' }),
    periodFrom: DateStr,
    periodTo: Type.String({ format: 'date' }),
    currency: Str,
    revenue: Int,
    operatingProfit: Int,
    operatingResult: N(Type.Integer({ description: 'The same value as operatingProfit, under the name Orakel uses' })),
    netResult: Int,
    equity: Int,
    totalAssets: Int,
    totalLiabilities: Int,
    averageEmployees: N(
      Type.Integer({ description: 'Average number of employees in the accounting year, where the filing states it' }),
    ),
    profitMargin: N(Type.Number({ description: 'netResult / revenue, %' })),
    operatingMargin: N(Type.Number({ description: 'operatingProfit / revenue, %' })),
    returnOnEquity: N(Type.Number({ description: 'netResult / equity, % (positive equity only)' })),
    equityRatio: N(Type.Number({ description: 'equity / totalAssets, %' })),
    revenueGrowthYoY: N(Type.Number({ description: 'revenue change from the previous year, %' })),
  },
  { $id: 'Financial', examples: [FINANCIAL_EXAMPLE] },
);

const Role = Type.Object(
  {
    roleTypeCode: Type.String({ description: 'e.g. DAGL (CEO), LEDE (board chair), MEDL, NEST, VARA, REVI, REGN' }),
    roleTypeDescription: Str,
    groupCode: Str,
    groupDescription: Str,
    personFirstName: Str,
    personMiddleName: Str,
    personLastName: Str,
    personBirthYear: N(Type.Integer({ description: 'Year only; the full birth date is never stored' })),
    entityOrgNumber: Str,
    entityName: Str,
    electedBy: Str,
    ownershipPercent: Num,
  },
  { $id: 'Role', examples: [ROLE_EXAMPLE] },
);

const SubUnit = Type.Object(
  {
    orgNumber: Type.String(),
    name: Type.String(),
    orgFormCode: Str,
    naceCode1: Str,
    naceDescription1: Str,
    employeeCount: Int,
    addressStreet: Str,
    addressPostalCode: Str,
    addressCity: Str,
    addressMunicipality: Str,
    addressMuniNo: Str,
    addressLat: Num,
    addressLng: Num,
    startDate: DateStr,
    closureDate: DateStr,
    isDeleted: Type.Boolean(),
  },
  { $id: 'SubUnit', examples: [SUB_UNIT_EXAMPLE] },
);

const License = Type.Object(
  {
    id: Type.String(),
    licenseNumber: Type.String(),
    orgNumber: Str,
    registerType: Type.String({ description: 'Alkoholsbevilling or Tobakksbevilling' }),
    licenseTypeCode: Type.String(),
    licenseTypeDescription: Str,
    venueName: Str,
    venueOrgNumber: Str,
    productGroups: Type.Array(Type.String()),
    municipality: Str,
    municipalityNo: Str,
    issuingAuthority: Str,
    validFrom: N(Type.String({ format: 'date-time' })),
    validTo: N(Type.String({ format: 'date-time' })),
  },
  { $id: 'License', examples: [LICENSE_EXAMPLE] },
);

const Technology = Type.Object({
  name: Type.String(),
  category: Type.String(),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
});
const Owner = N(Type.Object({ name: Str, orgNumber: Str, ownershipPct: Type.Number(), year: Type.Integer() }));

const coreFields = {
  id: Type.String(),
  orgNumber: Type.String(),
  country: Type.String({ enum: ['NO', 'FI', 'SE', 'DK'] }),
  name: Type.String(),
  orgFormCode: Str,
  orgFormDescription: Str,
  naceCode1: Str,
  naceDescription1: Str,
  naceCode2: Str,
  naceDescription2: Str,
  naceCode3: Str,
  naceDescription3: Str,
  sectorCode: Str,
  employeeCount: Int,
  employeeCountRange: Type.Optional(
    Type.String({
      description:
        'DK: the interval CVR registers when no exact count is given (employeeCount is its lower bound), e.g. "5-9"',
    }),
  ),
  hasRegisteredEmployees: Bool,
  businessAddressStreet: Str,
  businessAddressPostalCode: Str,
  businessAddressCity: Str,
  businessAddressMunicipality: Str,
  businessAddressMuniNo: Str,
  businessAddressCountryCode: Str,
  postalAddressStreet: Str,
  postalAddressPostalCode: Str,
  postalAddressCity: Str,
  postalAddressMunicipality: Str,
  postalAddressMuniNo: Str,
  postalAddressCountryCode: Str,
  website: N(
    Type.String({
      description:
        'The homepage the registry holds, as a URL: "https://" is put before a value without a scheme; null when none',
    }),
  ),
  phone: Str,
  parentOrgNumber: Str,
  isInGroup: Type.Boolean(),
  foundingDate: DateStr,
  registrationDate: DateStr,
  registeredInVat: Bool,
  registeredInBiz: Bool,
  isBankrupt: Type.Boolean(),
  isBeingDissolved: Type.Boolean(),
  isInForcedDissolution: Type.Boolean(),
  isDeleted: Type.Boolean(),
  deletedDate: DateStr,
  status: Str,
  description: Str,
  lastSubmittedAccountsYear: Str,
  primaryDomain: Str,
  enrichedDomains: Type.Array(Type.String()),
  linkedinHandle: Str,
  facebookHandle: Str,
  instagramHandle: Str,
  twitterHandle: Str,
  technologies: Type.Array(Technology),
  hasAnyAdPixel: Type.Boolean(),
  marketingProtected: N(
    Type.Boolean({
      description:
        "The company has declined advertising in its register: DK CVR's reklamebeskyttet, SE Bolagsverket's reklamspärr. null where the country has no such register (NO, FI) or the register has not said. CRM pushes skip true unless the destination allows them.",
    }),
  ),
  majorityOwner: Type.Optional(Owner),
  largestShareholder: Type.Optional(Owner),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
};

const labelFields = {
  naceName: Type.Optional(Str),
  orgFormName: Type.Optional(Str),
  countryName: Type.Optional(Str),
  municipalityName: Type.Optional(Str),
  countyCode: Type.Optional(Str),
  countyName: Type.Optional(Str),
};

// Store aggregates (companies, medianEmployees) beside the statistics bureaus' figures.
const Context = Type.Object({
  municipality: Type.Object({
    code: Str,
    companies: Type.Integer(),
    medianEmployees: Num,
    ...Type.Partial(Type.Object(placeFigures)).properties,
  }),
  industry: Type.Object({
    naceDivision: Str,
    companies: Type.Integer(),
    medianEmployees: Num,
    ...Type.Partial(Type.Object(industryFigures)).properties,
  }),
});

/** The parts of a full record (enrich, push, lookup), after its firmographics. */
const fullParts = {
  financials: Type.Array(Type.Ref('Financial')),
  roles: Type.Array(Type.Ref('Role')),
  subUnits: Type.Array(Type.Ref('SubUnit')),
  licenses: Type.Array(Type.Ref('License')),
  ...companyProcurementFields,
  _sources: Type.Ref('Sources'),
};

/** Full record: enrich items and push payload items. */
const CompanyRecord = Type.Object(
  {
    ...coreFields,
    ...derivedFields,
    signals: Type.Ref('Signals'),
    ...fullParts,
  },
  { $id: 'CompanyRecord', examples: [COMPANY_RECORD_EXAMPLE] },
);

/** Single lookup: the full record plus labels, county hydration and optional context. */
const CompanyLookup = Type.Object(
  {
    ...coreFields,
    ...labelFields,
    ...derivedFields,
    signals: Type.Ref('Signals'),
    context: Type.Optional(Context),
    ...fullParts,
  },
  { $id: 'CompanyLookup', examples: [COMPANY_LOOKUP_EXAMPLE] },
);

/** Search and change-feed rows: firmographics, latest financials, active roles, labels. */
const CompanyRow = Type.Object(
  {
    ...coreFields,
    ...labelFields,
    context: Type.Optional(Context),
    financials: Type.Array(Type.Ref('Financial')),
    roles: Type.Array(Type.Ref('Role')),
    _sources: Type.Ref('Sources'),
    ...derivedFields,
  },
  { $id: 'CompanyRow', examples: [COMPANY_ROW_EXAMPLE] },
);

export const COMPANY_SCHEMAS = [
  Sources,
  Signals,
  Financial,
  Role,
  SubUnit,
  License,
  CompanyRecord,
  CompanyLookup,
  CompanyRow,
  ProcurementNotice,
];
