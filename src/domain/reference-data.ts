// In-memory view of the reference lists: classification labels next to raw codes, county
// hydration and the municipality grouping. Built once at start-up from the store.

export interface ReferenceRows {
  counties: { code: string; name: string }[];
  municipalities: { code: string; name: string; county_code: string }[];
  nace: { version: string; code: string; name: string; short_name: string | null }[];
  orgForms: { country: string; code: string; description: string }[];
  postalCodes: { postal_code: string; place: string; municipality_code: string }[];
}

interface MunicipalityGroup {
  countyCode: string;
  countyName: string;
  municipalities: { code: string; name: string }[];
}

// SSB Klass labels are Norwegian; so are these (Orakel credits "SSB Klass" for them).
const COUNTRY_NAMES: Record<string, string> = { NO: 'Norge', FI: 'Finland', SE: 'Sverige', DK: 'Danmark' };

const normalise = (s: string) => s.trim().toLocaleLowerCase('nb');

export class ReferenceData {
  private readonly counties = new Map<string, string>();
  private readonly municipalities = new Map<string, { name: string; countyCode: string }>();
  private readonly nace = new Map<string, Map<string, string>>(); // version -> code -> name
  private readonly orgForms = new Map<string, string>(); // "NO:AS" -> description
  private readonly postal = new Map<string, { place: string; municipalityCode: string }>();
  private readonly groups: MunicipalityGroup[];

  constructor(rows: ReferenceRows) {
    for (const c of rows.counties) this.counties.set(c.code, c.name);
    for (const m of rows.municipalities) this.municipalities.set(m.code, { name: m.name, countyCode: m.county_code });
    for (const n of rows.nace) {
      if (!this.nace.has(n.version)) this.nace.set(n.version, new Map());
      this.nace.get(n.version)!.set(n.code, n.name);
    }
    for (const f of rows.orgForms) this.orgForms.set(`${f.country}:${f.code}`, f.description);
    for (const p of rows.postalCodes)
      this.postal.set(p.postal_code, { place: p.place, municipalityCode: p.municipality_code });
    this.groups = [...this.counties.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([countyCode, countyName]) => ({
        countyCode,
        countyName,
        municipalities: rows.municipalities
          .filter((m) => m.county_code === countyCode)
          .sort((a, b) => a.code.localeCompare(b.code))
          .map((m) => ({ code: m.code, name: m.name })),
      }));
  }

  municipalityGroups(countyCode?: string): MunicipalityGroup[] {
    return countyCode === undefined ? this.groups : this.groups.filter((g) => g.countyCode === countyCode);
  }

  countyName(code: string | null | undefined): string | null {
    return code ? (this.counties.get(code) ?? null) : null;
  }

  municipality(
    code: string | null | undefined,
  ): { code: string; name: string; countyCode: string; countyName: string | null } | null {
    if (!code) return null;
    const m = this.municipalities.get(code);
    if (!m) return null;
    return { code, name: m.name, countyCode: m.countyCode, countyName: this.countyName(m.countyCode) };
  }

  /**
   * NACE label. Brreg moved from SN2007 to SN2025 and the code sets overlap with different
   * meanings, so the version whose label agrees with the registry's own description wins;
   * without one, SN2025 (current) before SN2007.
   */
  naceName(code: string | null | undefined, registryDescription?: string | null): string | null {
    if (!code) return null;
    const in2025 = this.nace.get('SN2025')?.get(code);
    const in2007 = this.nace.get('SN2007')?.get(code);
    if (registryDescription) {
      const d = normalise(registryDescription);
      if (in2007 && normalise(in2007) === d) return in2007;
      if (in2025 && normalise(in2025) === d) return in2025;
    }
    return in2025 ?? in2007 ?? null;
  }

  orgFormName(country: string, code: string | null | undefined): string | null {
    return code ? (this.orgForms.get(`${country}:${code}`) ?? null) : null;
  }

  countryName(country: string): string | null {
    return COUNTRY_NAMES[country] ?? null;
  }

  postalPlace(postalCode: string | null | undefined): { place: string; municipalityCode: string } | null {
    return postalCode ? (this.postal.get(postalCode) ?? null) : null;
  }

  isKnownCounty(code: string): boolean {
    return this.counties.has(code);
  }

  isKnownMunicipality(code: string): boolean {
    return this.municipalities.has(code);
  }
}
