// Shape of one company in PRH's YTJ open-data API v3 (`/companies` pages and the `all_companies`
// dump), as far as we read it. Everything is optional: the JSON is untrusted and the mapper checks
// each field it uses. See upstream/FORMATS.md §7.1.

export interface PrhDescription {
  /** "1" fi, "2" sv, "3" en. */
  languageCode?: string;
  description?: string;
}

export interface PrhName {
  name?: string;
  /** "1" = the company name; other types are parallel/auxiliary names. */
  type?: string;
  registrationDate?: string;
  endDate?: string | null;
  version?: number;
}

export interface PrhCoded {
  type?: string;
  descriptions?: PrhDescription[];
  registrationDate?: string;
  endDate?: string | null;
}

interface PrhPostOffice {
  city?: string;
  languageCode?: string;
  municipalityCode?: string;
}

export interface PrhAddress {
  /** 1 = street (visiting) address, 2 = postal address. Numeric in the samples. */
  type?: number | string;
  street?: string;
  buildingNumber?: string;
  entrance?: string;
  apartmentNumber?: string;
  apartmentIdSuffix?: string;
  postOfficeBox?: string;
  postCode?: string;
  co?: string;
  country?: string;
  postOffices?: PrhPostOffice[];
  registrationDate?: string;
  endDate?: string | null;
}

export interface PrhCompany {
  businessId?: { value?: string; registrationDate?: string };
  names?: PrhName[];
  companyForms?: PrhCoded[];
  mainBusinessLine?: PrhCoded & { typeCodeSet?: string };
  /** Bankruptcy (KONK), liquidation (SELTILA), restructuring (SANE). */
  companySituations?: PrhCoded[];
  addresses?: PrhAddress[];
  website?: { url?: string } | null;
  /** REK_KDI code list: "1" registered, "0" not in the trade register, "2"/"3"/"4" ceased. */
  tradeRegisterStatus?: string;
  registrationDate?: string;
  /** Present when the company has ceased. */
  endDate?: string | null;
  lastModified?: string;
}

export interface PrhCompaniesPage {
  totalResults: number;
  companies: unknown[];
}
