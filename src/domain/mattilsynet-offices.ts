// Which Mattilsynet region inspects a place, from its county. The smilefjes CSV has no office
// column, so this is derived from the venue's municipality/county.
//
// Source and uncertainty: Mattilsynet has (since its 2017 reorganisation) five regions — Stor-Oslo,
// Øst, Sør og Vest, Midt and Nord — each covering whole former counties (fylker). This table is
// built from public descriptions of those regions, mapped onto the 2024 county codes. The county
// split of 2024 (Viken → Østfold/Akershus/Buskerud, Vestfold og Telemark → Vestfold/Telemark,
// Troms og Finnmark → Troms/Finnmark) restored the old county borders, so each 2024 county still
// lies within one region. Not verified against a current Mattilsynet org chart: treat as
// best-effort labels, not as an authoritative jurisdiction.

type InspectionOffice = 'Region Stor-Oslo' | 'Region Øst' | 'Region Sør og Vest' | 'Region Midt' | 'Region Nord';

const BY_COUNTY: ReadonlyMap<string, InspectionOffice> = new Map(
  Object.entries({
    '03': 'Region Stor-Oslo', // Oslo
    '31': 'Region Stor-Oslo', // Østfold
    '32': 'Region Stor-Oslo', // Akershus
    '33': 'Region Øst', // Buskerud
    '34': 'Region Øst', // Innlandet (Hedmark + Oppland)
    '39': 'Region Øst', // Vestfold
    '40': 'Region Øst', // Telemark
    '11': 'Region Sør og Vest', // Rogaland
    '42': 'Region Sør og Vest', // Agder
    '46': 'Region Sør og Vest', // Vestland (Hordaland + Sogn og Fjordane)
    '15': 'Region Midt', // Møre og Romsdal
    '50': 'Region Midt', // Trøndelag
    '18': 'Region Nord', // Nordland
    '55': 'Region Nord', // Troms
    '56': 'Region Nord', // Finnmark
    // 2020–2023 codes that still occur on historical records, where the whole county had one region.
    // 30 Viken is left out on purpose: it spanned Stor-Oslo (Østfold, Akershus) and Øst (Buskerud).
    '38': 'Region Øst', // Vestfold og Telemark
    '54': 'Region Nord', // Troms og Finnmark
  } satisfies Record<string, InspectionOffice>),
);

/** The Mattilsynet region for a 2-digit county code, or null when unknown or ambiguous (30 Viken). */
export function inspectionOfficeForCounty(countyCode: string): InspectionOffice | null {
  return BY_COUNTY.get(countyCode.trim()) ?? null; // a Map, so "constructor" is not a county
}

/** Same, from a 4-digit municipality number (its first two digits are the county). */
export function inspectionOfficeForMunicipality(municipalityNo: string): InspectionOffice | null {
  const s = municipalityNo.trim();
  return /^\d{4}$/.test(s) ? inspectionOfficeForCounty(s.slice(0, 2)) : null;
}
