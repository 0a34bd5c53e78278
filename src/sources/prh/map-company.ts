// Maps one PRH/YTJ v3 company object to the shared Nordic record. Rules (see README.md):
// current name = names[] type "1" without endDate (newest registrationDate); descriptions in
// Finnish, then English, then Swedish; ceased when the company has an endDate or a ceased
// trade-register status; bankruptcy/liquidation/restructuring from open companySituations.
import { isValidFinnishBusinessId } from '../../domain/org-number.ts';
import {
  parseIsoDate,
  text,
  type NordicAddress,
  type NordicCompanyRecord,
  type NordicCompanyStatus,
  type NordicOtherName,
} from '../nordic-record.ts';
import type { PrhAddress, PrhCoded, PrhCompany, PrhDescription, PrhName } from './types.ts';

/** Finnish first: the register's own language, as Norwegian labels are for brreg data. */
const LANGUAGE_PREFERENCE = ['1', '3', '2'];
/** REK_KDI values that mean the company is no longer in the trade register (see README.md). */
const CEASED_TRADE_REGISTER_STATUS = new Set(['2', '3', '4']);

export function pickDescription(descriptions: PrhDescription[] | undefined): string | null {
  if (!Array.isArray(descriptions)) return null;
  for (const lang of LANGUAGE_PREFERENCE) {
    const d = descriptions.find((x) => x?.languageCode === lang && text(x.description));
    if (d) return text(d.description);
  }
  for (const d of descriptions) if (text(d?.description)) return text(d.description);
  return null;
}

const isOpen = (x: { endDate?: string | null }) => !text(x?.endDate);
const byNewest = <T extends { registrationDate?: string }>(a: T, b: T) =>
  (text(b.registrationDate) ?? '').localeCompare(text(a.registrationDate) ?? '');

function currentName(names: PrhName[] | undefined): string | null {
  if (!Array.isArray(names)) return null;
  const named = names.filter((n) => text(n?.name));
  const official = named.filter((n) => n.type === '1');
  // A ceased company may have end dates on every name; then its last official name is still its name.
  const pick = official.filter(isOpen).sort(byNewest)[0] ?? official.sort(byNewest)[0] ?? named.filter(isOpen)[0];
  return pick ? text(pick.name) : null;
}

/**
 * Every name but the current one: official names (type "1") that ended are former names; other
 * types are parallel or auxiliary names (former too once they ended). Undated or malformed
 * dates are kept as unknown rather than rejecting the company.
 */
function otherNames(names: PrhName[] | undefined, currentName: string): NordicOtherName[] {
  if (!Array.isArray(names)) return [];
  const date = (v: unknown) => {
    const t = typeof v === 'string' ? v.trim().slice(0, 10) : '';
    return /^\d{4}-\d{2}-\d{2}$/.test(t) ? t : null;
  };
  return names
    .filter((n) => text(n?.name) && !(text(n.name) === currentName && n.type === '1' && isOpen(n)))
    .map((n) => ({
      name: text(n.name)!,
      kind:
        n.type === '1' || !isOpen(n)
          ? ('former' as const)
          : n.type === '2'
            ? ('parallel' as const)
            : ('auxiliary' as const),
      validFrom: date(n.registrationDate),
      validTo: date(n.endDate),
    }));
}

function current<T extends { endDate?: string | null; registrationDate?: string }>(items: T[]): T | null {
  return items.filter(isOpen).sort(byNewest)[0] ?? null;
}

function mapAddress(a: PrhAddress | null): NordicAddress | null {
  if (!a) return null;
  const postOffices = Array.isArray(a.postOffices) ? a.postOffices : [];
  const office =
    postOffices.find((p) => p?.languageCode === '1' && text(p.city)) ?? postOffices.find((p) => text(p?.city)) ?? null;
  const apartment = [text(a.apartmentNumber), text(a.apartmentIdSuffix)].filter(Boolean).join('');
  let street =
    [text(a.street), text(a.buildingNumber), text(a.entrance), apartment || null].filter(Boolean).join(' ') || null;
  if (!text(a.street) && text(a.postOfficeBox)) street = `PL ${text(a.postOfficeBox)}`; // postilokero
  const co = text(a.co);
  if (co) street = [/^c\/o\b/i.test(co) ? co : `c/o ${co}`, street].filter(Boolean).join(', ');
  const country = text(a.country)?.toUpperCase() ?? null;
  const out: NordicAddress = {
    street,
    postalCode: text(a.postCode),
    city: office ? text(office.city) : null,
    municipalityCode: office ? text(office.municipalityCode) : null,
    // Post offices carry Finnish municipality codes, so an address with one is in Finland.
    countryCode: country && /^[A-Z]{2}$/.test(country) ? country : postOffices.length > 0 ? 'FI' : null,
  };
  return Object.values(out).some((v) => v !== null) ? out : null;
}

function pickAddress(addresses: PrhAddress[] | undefined, type: number): PrhAddress | null {
  if (!Array.isArray(addresses)) return null;
  return current(addresses.filter((a) => Number(a?.type) === type));
}

function dateField(company: string, field: string, v: unknown): string | null {
  if (v !== undefined && v !== null && typeof v !== 'string')
    throw new Error(`company ${company}: ${field} is not a string`);
  try {
    return parseIsoDate(v as string | null | undefined);
  } catch (err) {
    throw new Error(`company ${company}: ${field}: ${(err as Error).message}`, { cause: err });
  }
}

/** Maps one company object; throws an Error naming the business ID and the problem. */
export function parsePrhCompany(json: unknown): NordicCompanyRecord {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new Error('PRH company is not a JSON object');
  const c = json as PrhCompany;
  const orgNumber = text(c.businessId?.value);
  if (!orgNumber) throw new Error('PRH company without businessId.value');
  if (!isValidFinnishBusinessId(orgNumber)) throw new Error(`company ${orgNumber}: invalid business ID`);
  const name = currentName(c.names);
  if (!name) throw new Error(`company ${orgNumber}: no company name (names[] type "1")`);

  const form: PrhCoded | null = Array.isArray(c.companyForms) ? current(c.companyForms) : null;
  const line = c.mainBusinessLine && typeof c.mainBusinessLine === 'object' ? c.mainBusinessLine : null;

  const situations = new Set(
    (Array.isArray(c.companySituations) ? c.companySituations : []).filter(isOpen).map((s) => text(s?.type)),
  );
  const endDate = dateField(orgNumber, 'endDate', c.endDate);
  const isDeregistered = endDate !== null || CEASED_TRADE_REGISTER_STATUS.has(String(c.tradeRegisterStatus ?? ''));
  const isBankrupt = situations.has('KONK');
  const inLiquidation = situations.has('SELTILA');
  const status: NordicCompanyStatus = isDeregistered
    ? 'deregistered'
    : isBankrupt
      ? 'bankruptcy'
      : inLiquidation
        ? 'liquidation'
        : situations.has('SANE')
          ? 'restructuring'
          : 'registered';

  const website = typeof c.website === 'string' ? text(c.website) : text(c.website?.url);
  const lastModified = text(c.lastModified);
  return {
    country: 'FI',
    orgNumber,
    name,
    orgFormCode: form ? text(form.type) : null,
    orgFormDescription: form ? pickDescription(form.descriptions) : null,
    naceCode1: line ? text(line.type) : null,
    naceDescription1: line ? pickDescription(line.descriptions) : null,
    businessAddress: mapAddress(pickAddress(c.addresses, 1)),
    postalAddress: mapAddress(pickAddress(c.addresses, 2)),
    website,
    registrationDate:
      dateField(orgNumber, 'registrationDate', c.registrationDate) ??
      dateField(orgNumber, 'businessId.registrationDate', c.businessId?.registrationDate),
    deregistrationDate: endDate,
    isDeregistered,
    isBankrupt,
    isBeingDissolved: !isDeregistered && inLiquidation,
    status,
    description: null,
    lastModified: lastModified && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(lastModified) ? lastModified : null,
    otherNames: otherNames(c.names, name),
  };
}
