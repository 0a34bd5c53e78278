// Maps the shared Finnish/Swedish record (nordic-record.ts) to the store's company core, the
// same shape the Norwegian mapper produces. Pure and deterministic: the store compares content
// hashes of the result, so an identical upstream record must give an identical core (that is
// what keeps `updatedAt` still on a re-run). Fields neither register publishes stay null.
import { SOURCE, type Address, type CompanyCore } from '../domain/company.ts';
import type { NordicAddress, NordicCompanyRecord } from './nordic-record.ts';

const SOURCE_BY_COUNTRY = { FI: SOURCE.ytj, SE: SOURCE.bolagsverket } as const;

function address(a: NordicAddress | null): Address | null {
  if (!a) return null;
  return {
    street: a.street,
    postalCode: a.postalCode,
    city: a.city,
    // Only the code is published (FI: Statistics Finland's 3-digit code); the post office
    // name in `city` is not the municipality, so no name is guessed.
    municipality: null,
    municipalityNumber: a.municipalityCode,
    countryCode: a.countryCode,
  };
}

/** Web address as brreg's are kept ("www.example.fi", no scheme, no trailing slash). */
function website(v: string | null): string | null {
  if (!v) return null;
  const t = v
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/\/+$/, '');
  return t === '' ? null : t;
}

export function nordicToCompanyCore(r: NordicCompanyRecord): CompanyCore {
  return {
    country: r.country,
    orgNumber: r.orgNumber,
    name: r.name,
    orgFormCode: r.orgFormCode,
    orgFormDescription: r.orgFormDescription,
    // FI: TOL 2008 5-digit code as PRH gives it ("62010"). It is not reformatted to brreg's
    // "62.010": the national 5th digit differs between countries, and a Norwegian SSB label
    // must never be attached to a Finnish code.
    naceCode1: r.naceCode1,
    naceDescription1: r.naceDescription1,
    naceCode2: null,
    naceDescription2: null,
    naceCode3: null,
    naceDescription3: null,
    sectorCode: null,
    employeeCount: null,
    hasRegisteredEmployees: null,
    businessAddress: address(r.businessAddress),
    postalAddress: address(r.postalAddress),
    website: website(r.website),
    email: null,
    phone: null,
    registryParentOrgNumber: null,
    foundingDate: null,
    registrationDate: r.registrationDate,
    registeredInVat: null,
    registeredInBiz: null,
    isBankrupt: r.isBankrupt,
    isBeingDissolved: r.isBeingDissolved,
    isInForcedDissolution: false,
    isDeleted: r.isDeregistered,
    deletedDate: r.deregistrationDate,
    status: r.status,
    description: r.description,
    lastSubmittedAccountsYear: null,
    source: SOURCE_BY_COUNTRY[r.country],
  };
}
