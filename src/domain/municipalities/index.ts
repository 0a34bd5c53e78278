// Municipality reference lists of Sweden, Finland and Denmark (Norway's come from SSB Klass
// through the reference tables): grouping by county (län, maakunta, region), lookup by code,
// and the municipality of a company address that names only its town (Bolagsverket).
import { DK_MUNICIPALITIES } from './dk.ts';
import { FI_MUNICIPALITIES } from './fi.ts';
import { SE_MUNICIPALITIES } from './se.ts';

interface Municipality {
  code: string;
  name: string;
  countyCode: string;
  countyName: string;
}

interface CountyGroup {
  countyCode: string;
  countyName: string;
  municipalities: { code: string; name: string }[];
}

class MunicipalityList {
  readonly groups: CountyGroup[] = [];
  private readonly byCode = new Map<string, Municipality>();
  private readonly byName = new Map<string, string>();

  constructor(text: string) {
    let county: CountyGroup | undefined;
    for (const line of text.split('\n')) {
      const m = /^(#?)(\d+) (.+)$/.exec(line.trim());
      if (!m) continue;
      if (m[1]) {
        county = { countyCode: m[2], countyName: m[3], municipalities: [] };
        this.groups.push(county);
      } else if (county) {
        county.municipalities.push({ code: m[2], name: m[3] });
        this.byCode.set(m[2], { code: m[2], name: m[3], countyCode: county.countyCode, countyName: county.countyName });
        this.byName.set(nameKey(m[3]), m[2]);
      }
    }
    this.groups.sort((a, b) => a.countyCode.localeCompare(b.countyCode));
    for (const g of this.groups) g.municipalities.sort((a, b) => a.code.localeCompare(b.code));
  }

  get(code: string): Municipality | null {
    return this.byCode.get(code) ?? null;
  }

  codeOfName(name: string): string | null {
    return this.byName.get(nameKey(name)) ?? null;
  }
}

const nameKey = (s: string) => s.trim().toLocaleLowerCase('sv').replace(/\s+/g, ' ');

const LISTS = {
  SE: new MunicipalityList(SE_MUNICIPALITIES),
  FI: new MunicipalityList(FI_MUNICIPALITIES),
  DK: new MunicipalityList(DK_MUNICIPALITIES),
};

type ListedCountry = keyof typeof LISTS;

export function isListedCountry(country: string): country is ListedCountry {
  return country in LISTS;
}

/** The municipalities of SE, FI or DK grouped by county, sorted by county code; one county when given. */
export function countyGroups(country: ListedCountry, countyCode?: string): CountyGroup[] {
  const groups = LISTS[country].groups;
  return countyCode === undefined ? groups : groups.filter((g) => g.countyCode === countyCode);
}

export function listedMunicipality(country: ListedCountry, code: string): Municipality | null {
  return LISTS[country].get(code);
}

/**
 * The municipality code of a stored address: its own code when it is on the list, else (SE,
 * whose registry addresses carry the post town only) the kommun whose name is the town's.
 */
export function municipalityOfAddress(country: ListedCountry, code: string | null, town: string | null): string | null {
  // CVR and DAWA write Danish kommunekoder with four digits ("0101"); the list, like StatBank, three.
  const own = country === 'DK' && code && /^0\d{3}$/.test(code) ? code.slice(1) : code;
  if (own && LISTS[country].get(own)) return own;
  return town ? LISTS[country].codeOfName(town) : null;
}

/**
 * The inverse of `municipalityOfAddress`: how a municipality's companies are stored. Its code
 * (DK also as CVR's and DAWA's four digits) and, for SE, whose registry addresses carry the post
 * town only, the town spelled as the list writes it and as Bolagsverket does (upper case). The
 * store aggregates of market context count companies by it.
 */
export function storedSpellingsOf(country: string, code: string): { codes: string[]; towns: string[] } {
  const codes = country === 'DK' && /^\d{3}$/.test(code) ? [code, `0${code}`] : [code];
  const m = country === 'SE' ? LISTS.SE.get(code) : null;
  const towns = m ? [...new Set([m.name, m.name.toLocaleUpperCase('sv'), m.name.toLocaleLowerCase('sv')])] : [];
  return { codes, towns };
}
