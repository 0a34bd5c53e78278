// Shared shapes of PEP/sanctions screening. Defined in the domain (not in sources/) because
// both the parsers and the matcher use them, and the domain imports nothing of ours.

export type SanctionSchema = 'Person' | 'Organization' | 'Company' | 'LegalEntity';

export interface SanctionEntity {
  /** Upstream id: FtM id, EU `eu-fsf-<logicalId>`, UN `un-<DATAID>`. */
  id: string;
  schema: SanctionSchema;
  /** Primary name (FtM caption, EU first strong wholeName, UN joined name parts). */
  name: string;
  /** Other strong names and aliases, used for matching. */
  aliases: string[];
  /**
   * Weak / low-quality aliases (FtM `weakAlias`, EU `strong="false"`, UN `QUALITY Low`):
   * kept for display, never matched on, because they are often single common words
   * ("Musa", "ISI") that would flood results with false positives.
   */
  weakAliases: string[];
  /** 'YYYY' or 'YYYY-MM': day precision is dropped on ingest (no full birth dates stored). */
  birthDates: string[];
  /** ISO 3166-1 alpha-2, lower case (nationality, citizenship, country, jurisdiction). */
  countries: string[];
  /** FtM topic vocabulary: sanction, role.pep, role.rca, poi, crime.* … */
  topics: string[];
  datasets: string[];
  firstSeen?: string;
  lastSeen?: string;
  lastChange?: string;
}

export type NameKind = 'person' | 'organisation';

export interface ScreeningSubject {
  name: string;
  kind: NameKind;
  birthYear?: number | null;
  /** ISO-2, any case. */
  countries?: string[];
}

export interface NormalisedName {
  /** Input with whitespace collapsed (for showing to people). */
  display: string;
  /** ASCII, lower-case tokens in name order, honorifics / legal forms / stop words removed. */
  tokens: string[];
  /** Spelling-folded tokens, sorted and space-joined: the key for trigram similarity. */
  sortedKey: string;
  /** Double Metaphone codes of the tokens (deduplicated). */
  phoneticKeys: string[];
  /** Legal forms recognised and removed (organisations), e.g. ['pjsc']. */
  legalForms: string[];
}

export type BirthYearAgreement = 'match' | 'close' | 'mismatch' | 'unknown';
export type CountryAgreement = 'match' | 'mismatch' | 'unknown';

export interface ScoreAdjustment {
  feature: string;
  delta: number;
  reason: string;
}

export type TokenHow = 'exact' | 'spelling' | 'phonetic' | 'initial' | 'joined' | 'script' | 'translated' | 'fuzzy';

/** One aligned word pair: what drove the name similarity. */
export interface TokenMatch {
  query: string;
  candidate: string;
  similarity: number;
  how: TokenHow;
}

export interface MatchExplanation {
  /** Best name-to-name similarity in [0, 1] before birth-year and country adjustments. */
  nameSimilarity: number;
  /** Share of tokens (of the longer name) aligned with a similar token of the other name. */
  tokenOverlap: number;
  /** Share of tokens (of the longer name) whose aligned partner has the same phonetic code. */
  phonetic: number;
  /** The aligned word pairs, best first. */
  tokens: TokenMatch[];
  /** Words without a partner on the other side. */
  unmatched: { query: string[]; candidate: string[] };
  birthYear: BirthYearAgreement;
  country: CountryAgreement;
  adjustments: ScoreAdjustment[];
}

/**
 * exact / alias: the same words (case, accents, order, honorifics and legal forms aside) in the
 * same script as the primary name / an alias; transliterated: the same only after
 * transliteration or spelling folds; phonetic: every aligned pair sounds alike; fuzzy: the rest.
 */
export type MatchType = 'exact' | 'alias' | 'transliterated' | 'phonetic' | 'fuzzy';

export interface MatchResult {
  score: number;
  matchType: MatchType;
  /** The entity name (primary or alias) that matched best, as listed. */
  matchedName: string;
  explanation: MatchExplanation;
}
