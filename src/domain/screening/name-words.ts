// Word lists that change how much a name token counts. All entries are ASCII lower case,
// i.e. compared after any-ascii transliteration.

/** Titles and honorifics: dropped from person names (they say nothing about identity). */
export const HONORIFICS = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'dr',
  'prof',
  'professor',
  'sir',
  'dame',
  'lord',
  'lady',
  'herr',
  'fru',
  'frk',
  'froken',
  'frau',
  'fraulein',
  'mme',
  'madame',
  'mlle',
  'monsieur',
  'senor',
  'senora',
  'sheikh',
  'shaikh',
  'sheik',
  'shaykh',
  'mullah',
  'mulla',
  'maulana',
  'maulvi',
  'haji',
  'hajji',
  'hadji',
  'sayyid',
  'seyyed',
  'ayatollah',
  'hon',
  'rev',
  'colonel',
  'col',
  'general',
  'gen',
  'lieutenant',
  'lt',
  'captain',
  'capt',
  'admiral',
  'brigadier',
  'president',
  'prasident',
  'presidente',
  'jr',
  'jnr',
  'sr',
  'snr',
]);

/**
 * Name particles (articles, "son of", nobiliary): kept, but weigh little, because lists write
 * them inconsistently ("al-Assad" / "Assad", "bin Laden" / "Binladin").
 */
export const PARTICLES = new Set([
  'al',
  'el',
  'ul',
  'bin',
  'ibn',
  'bint',
  'ben',
  'van',
  'von',
  'der',
  'den',
  'de',
  'da',
  'di',
  'du',
  'la',
  'le',
  'dos',
  'das',
  'del',
  'ter',
  'af',
]);

/**
 * East Slavic / Turkic patronymic endings (Vladimirovich, Ivanovna, Volodymyrovych, Vladimirovitj,
 * Paulauna, ogly). A missing patronymic is the most common difference between a list entry and
 * a name as registered in the Nordics, so it costs little.
 */
const PATRONYMIC =
  /(ovich|evich|ovych|evych|ovitch|evitch|ovitj|evitj|ovitsj|evitsj|avich|avitj|ovna|evna|ivna|auna|ogly|oglu|kyzy|qizi)$/;
export const isPatronymic = (token: string) => token.length > 5 && PATRONYMIC.test(token);

/** Connectives dropped from organisation names ("Hansen & Sønn" = "Hansen og Sønn"). */
export const ORG_STOP_WORDS = new Set(['the', 'and', 'of', 'og', 'och', 'ja', 'und', 'et', 'y', 'e']);

/**
 * Generic organisation words: an extra one on one side ("MMC Norilsk Nickel", "Norebo Holding")
 * costs little; they still count when both sides have them.
 */
export const GENERIC_ORG_WORDS = new Set([
  'holding',
  'holdings',
  'group',
  'gruppen',
  'konsern',
  'concern',
  'company',
  'kompaniya',
  'state',
  'enterprise',
  'international',
  'mmc',
  'firm',
  'firma',
  'pmc',
  'chvk',
  'nk',
  // Words that say what a company does, not which company it is: an extra one is the same
  // company described more fully ("Haugland Maritime Services").
  'services',
  'service',
  'solutions',
  'trading',
  'consulting',
  'management',
]);
