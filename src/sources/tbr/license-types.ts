// Vocabulary of Helsedirektoratet's TBR (alcohol and tobacco licence registers) as far as it is
// publicly described (FORMATS.md §5, REFERENCE-ORAKEL.md §1.9/§3). There is no public raw export,
// so this is our own import format's vocabulary; codes stay opaque strings.

export const REGISTER_TYPES = ['Alkoholsbevilling', 'Tobakksbevilling'] as const;
export type RegisterType = (typeof REGISTER_TYPES)[number];

/** Varegrupper. GRP1–3 follow alkoholloven § 1-3; TROY/TINN are the tobacco groups. */
const PRODUCT_GROUPS = {
  GRP1: 'Alkoholholdig drikk over 2,5 og høyst 4,7 volumprosent alkohol',
  GRP2: 'Alkoholholdig drikk over 4,7 og under 22 volumprosent alkohol',
  GRP3: 'Alkoholholdig drikk fra 22 til og med 60 volumprosent alkohol',
  TROY: 'Røyketobakk',
  TINN: 'Ikke-røyk tobakk',
} as const;
export type ProductGroup = keyof typeof PRODUCT_GROUPS;
export const isProductGroup = (s: string): s is ProductGroup => Object.hasOwn(PRODUCT_GROUPS, s);

/**
 * Descriptions for the licence-type codes we have seen named in public material, used only when
 * an import row has no description of its own. Only four codes are known; others stay null
 * rather than guessed.
 */
const LICENSE_TYPE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  '01SKJE': 'Skjenkebevilling', // on-premise serving; certain (both sources agree)
  '11ENGR': 'Engrosbevilling', // wholesale; certain
  '18TBIM': 'Tobakk import', // tobacco import; from a reseller's description, not Helsedirektoratet
  // Uncertain: the reseller's API page says "tobacco export", its TBR source page says "tobacco
  // retail". We follow the API page (the one SPEC.md also quotes).
  '19TBEK': 'Tobakk eksport',
};

export function describeLicenseType(code: string): string | null {
  return Object.hasOwn(LICENSE_TYPE_DESCRIPTIONS, code) ? LICENSE_TYPE_DESCRIPTIONS[code] : null;
}

/** The columns (CSV) / keys (JSON) of the import format, in the documented order. */
export const LICENSE_FIELDS = [
  'licenseNumber',
  'registerType',
  'licenseTypeCode',
  'licenseTypeDescription',
  'orgNumber',
  'holderName',
  'venueName',
  'venueOrgNumber',
  'productGroups',
  'address',
  'postnr',
  'poststed',
  'municipality',
  'municipalityNo',
  'issuingAuthority',
  'validFrom',
  'validTo',
] as const;
export type LicenseField = (typeof LICENSE_FIELDS)[number];
export const REQUIRED_LICENSE_FIELDS: readonly LicenseField[] = ['licenseNumber', 'registerType', 'licenseTypeCode'];

/** Other spellings accepted for a field (Orakel's source page calls the description licenseTypeDesc). */
export const LICENSE_FIELD_ALIASES: Readonly<Record<string, LicenseField>> = {
  licenseTypeDesc: 'licenseTypeDescription',
};
