// The company record's parts as the adapters produce them and the store keeps them: one
// shape for every country. Provenance travels with each part (source names per field group).
import type { Country } from './org-number.ts';

export interface Address {
  street: string | null;
  postalCode: string | null;
  city: string | null;
  municipality: string | null;
  municipalityNumber: string | null;
  countryCode: string | null;
}

export interface CompanyCore {
  country: Country;
  orgNumber: string;
  name: string;
  orgFormCode: string | null;
  orgFormDescription: string | null;
  naceCode1: string | null;
  naceDescription1: string | null;
  naceCode2: string | null;
  naceDescription2: string | null;
  naceCode3: string | null;
  naceDescription3: string | null;
  sectorCode: string | null;
  employeeCount: number | null;
  /** DK: the CVR interval ("5-9", "1000+") when only an interval is registered; others omit it. */
  employeeCountRange?: string | null;
  hasRegisteredEmployees: boolean | null;
  businessAddress: Address | null;
  postalAddress: Address | null;
  website: string | null;
  /** Kept for domain discovery only; never served (it can be a sole trader's own address). */
  email: string | null;
  phone: string | null;
  registryParentOrgNumber: string | null;
  foundingDate: string | null;
  registrationDate: string | null;
  registeredInVat: boolean | null;
  registeredInBiz: boolean | null;
  isBankrupt: boolean;
  isBeingDissolved: boolean;
  isInForcedDissolution: boolean;
  /**
   * Reconstruction or debt negotiation; present only when the registry shows it, so the content
   * hash of every other company stays what it was before the field existed.
   */
  isInDebtNegotiation?: boolean;
  isDeleted: boolean;
  deletedDate: string | null;
  status: string | null;
  description: string | null;
  lastSubmittedAccountsYear: string | null;
  /** Name of the registry that supplied the core fields (provenance). */
  source: string;
}

export interface RoleInput {
  groupCode: string | null;
  groupDescription: string | null;
  roleTypeCode: string;
  roleTypeDescription: string | null;
  personFirstName: string | null;
  personMiddleName: string | null;
  personLastName: string | null;
  /** Year only: the registry's full birth date is never stored (data minimisation). */
  personBirthYear: number | null;
  entityOrgNumber: string | null;
  entityName: string | null;
  electedBy: string | null;
  responsibilityShare: string | null;
  position: number | null;
}

export interface FinancialInput {
  upstreamId: string | null;
  accountsType: string;
  periodFrom: string | null;
  periodTo: string;
  currency: string | null;
  revenue: number | null;
  operatingProfit: number | null;
  netResult: number | null;
  equity: number | null;
  totalAssets: number | null;
  totalLiabilities: number | null;
  /** Average number of employees in the accounting year, where the filing states it. */
  employees?: number | null;
  source: string;
}

export interface SubUnitInput {
  orgNumber: string;
  parentOrgNumber: string | null;
  name: string;
  orgFormCode: string | null;
  naceCode1: string | null;
  naceDescription1: string | null;
  employeeCount: number | null;
  address: Address | null;
  startDate: string | null;
  closureDate: string | null;
  isDeleted: boolean;
}

/** Source names as credited in `_sources` (REFERENCE-ORAKEL §0). */
export const SOURCE = {
  brreg: 'Brønnøysundregistrene',
  regnskap: 'Regnskapsregisteret',
  ssbKlass: 'SSB Klass',
  ssb: 'SSB',
  ytj: 'YTJ',
  tilastokeskus: 'Tilastokeskus',
  bolagsverket: 'Bolagsverket',
  cvr: 'CVR',
  cvrFinancials: 'CVR (Erhvervsstyrelsen, XBRL)',
  prhFinancials: 'PRH (XBRL financial statements)',
  bolagsverketFinancials: 'Bolagsverket (iXBRL annual reports)',
  aksjonaer: 'Aksjonærregisteret',
  webProfile: 'Enrichment pipeline', // public source name, kept as published
  ownStore: 'Nordic Company Data',
} as const;

/** Unicode-aware lower-casing for the name search column (the embedded C locale can't). */
export function normaliseCompanyName(name: string): string {
  return name.normalize('NFC').toLocaleLowerCase('nb').replace(/\s+/g, ' ').trim();
}
