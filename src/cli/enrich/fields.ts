// The columns `ncd enrich` can add. Names follow the CRM field catalogue of the hosted product
// (REFERENCE-ORAKEL §5 "Twenty app"), so a sheet prepared for it maps one to one; besides these,
// any scalar of the company record can be asked for by its own name.
import { UsageError } from '../../ops/usage-error.ts';
import type { CompanyRecord, Financial, Role } from '../../../clients/js/src/index.ts';

export type CellValue = string | number | boolean | null;
export interface FieldSpec {
  name: string;
  read: (c: CompanyRecord) => CellValue;
}

export const DEFAULT_FIELDS = ['name', 'employeeCount', 'revenue', 'ceoName', 'website'];

/** The company's own accounts (SELSKAP) of the latest period; group accounts only when it has no own. */
function latestFinancial(c: CompanyRecord): Financial | undefined {
  const own = c.financials.filter((f) => f.regnskapstype === 'SELSKAP');
  const pool = own.length ? own : c.financials;
  return pool.reduce<Financial | undefined>((best, f) => (!best || f.periodTo > best.periodTo ? f : best), undefined);
}

function personOrEntity(r: Role): string | null {
  const person = [r.personFirstName, r.personMiddleName, r.personLastName].filter(Boolean).join(' ');
  return person || r.entityName || null;
}

const rolesOf = (c: CompanyRecord, codes: string[]) => c.roles.filter((r) => codes.includes(r.roleTypeCode));
const firstRole = (codes: string[]) => (c: CompanyRecord) => {
  const r = rolesOf(c, codes)[0];
  return r ? personOrEntity(r) : null;
};
const firstRoleOrgNumber = (codes: string[]) => (c: CompanyRecord) => rolesOf(c, codes)[0]?.entityOrgNumber ?? null;
const financialValue =
  (key: 'revenue' | 'operatingProfit' | 'equity' | 'totalAssets' | 'netResult') => (c: CompanyRecord) =>
    latestFinancial(c)?.[key] ?? null;
const joined = (values: (string | null | undefined)[]) => values.filter(Boolean).join('; ') || null;

const CATALOGUE: Record<string, (c: CompanyRecord) => CellValue> = {
  companyName: (c) => c.name,
  // DK reklamebeskyttet / SE reklamspärr: true, false, or empty where the country has no register.
  marketingProtected: (c) => (c as { marketingProtected?: boolean | null }).marketingProtected ?? null,
  orgForm: (c) => c.orgFormCode,
  industryNace: (c) => (c.naceCode1 ? [c.naceCode1, c.naceDescription1].filter(Boolean).join(' ') : null),
  revenue: financialValue('revenue'),
  operatingProfit: financialValue('operatingProfit'),
  equity: financialValue('equity'),
  totalAssets: financialValue('totalAssets'),
  netResult: financialValue('netResult'),
  accountsYear: (c) => latestFinancial(c)?.periodTo.slice(0, 4) ?? null,
  ceoName: firstRole(['DAGL']),
  boardChair: firstRole(['LEDE']),
  boardMembers: (c) => joined(rolesOf(c, ['LEDE', 'NEST', 'MEDL']).map(personOrEntity)),
  // The verified domain beats the registered website, which may be stale.
  website: (c) => c.primaryDomain ?? c.website,
  techStack: (c) => joined(c.technologies.map((t) => t.name)),
  linkedinUrl: (c) => (c.linkedinHandle ? `https://linkedin.com/company/${c.linkedinHandle}` : null),
  streetAddress: (c) => c.businessAddressStreet,
  postalCode: (c) => c.businessAddressPostalCode,
  city: (c) => c.businessAddressCity,
  municipality: (c) => c.businessAddressMunicipality,
  auditorName: firstRole(['REVI']),
  auditorOrgNumber: firstRoleOrgNumber(['REVI']),
  accountingFirmName: firstRole(['REGN']),
  accountingFirmOrgNumber: firstRoleOrgNumber(['REGN']),
  isSubsidiary: (c) => c.parentOrgNumber !== null,
  majorityOwner: (c) => c.majorityOwner?.name ?? null,
  largestShareholder: (c) => c.largestShareholder?.name ?? null,
};

// Scalars of the record served as they are; typed against the record so a renamed field fails the build.
const RECORD_SCALARS = [
  'orgNumber',
  'country',
  'name',
  'orgFormCode',
  'orgFormDescription',
  'naceCode1',
  'naceDescription1',
  'naceCode2',
  'naceDescription2',
  'naceCode3',
  'naceDescription3',
  'sectorCode',
  'employeeCount',
  'hasRegisteredEmployees',
  'businessAddressStreet',
  'businessAddressPostalCode',
  'businessAddressCity',
  'businessAddressMunicipality',
  'businessAddressMuniNo',
  'businessAddressCountryCode',
  'postalAddressStreet',
  'postalAddressPostalCode',
  'postalAddressCity',
  'postalAddressMunicipality',
  'postalAddressMuniNo',
  'postalAddressCountryCode',
  'phone',
  'parentOrgNumber',
  'isInGroup',
  'foundingDate',
  'registrationDate',
  'registeredInVat',
  'registeredInBiz',
  'isBankrupt',
  'isBeingDissolved',
  'isInForcedDissolution',
  'isDeleted',
  'deletedDate',
  'status',
  'description',
  'lastSubmittedAccountsYear',
  'primaryDomain',
  'linkedinHandle',
  'facebookHandle',
  'instagramHandle',
  'twitterHandle',
  'hasAnyAdPixel',
  'updatedAt',
] as const satisfies readonly (keyof CompanyRecord)[];

export function availableFields(): string[] {
  return [...new Set([...Object.keys(CATALOGUE), ...RECORD_SCALARS])].sort();
}

function lookupField(name: string): FieldSpec | undefined {
  if (Object.hasOwn(CATALOGUE, name)) return { name, read: CATALOGUE[name] };
  if ((RECORD_SCALARS as readonly string[]).includes(name))
    return { name, read: (c) => (c as unknown as Record<string, CellValue>)[name] ?? null };
  return undefined;
}

export function resolveFields(list: string): FieldSpec[] {
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!names.length) throw new UsageError('--fields is empty');
  const unknown = names.filter((n) => !lookupField(n));
  if (unknown.length)
    throw new UsageError(
      `Unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Available: ${availableFields().join(', ')}`,
    );
  const dupes = names.filter((n, i) => names.indexOf(n) !== i);
  if (dupes.length) throw new UsageError(`Field listed twice: ${[...new Set(dupes)].join(', ')}`);
  return names.map((n) => lookupField(n)!);
}
