// Russian and Ukrainian organisation names are listed twice: transliterated ("Muromskiy
// priborostroitelnyy zavod") and translated ("Murom Instrument-Making Plant"). Spelling cannot
// pair a word with its translation, so two small classes of equivalents are data here:
// - **Vocabulary**: the generic words of industrial and state organisation names (plant,
//   instrument-making, research, production association …) with their Russian and Ukrainian
//   stems. A word pairs with its translation only across the two languages: "plant" and
//   "factory" in two English names stay different words.
// - **Place adjectives**: Russian/Ukrainian name a place by its adjective (Muromskiy, Tulskaya,
//   Kyivskyi, Moskovskiy), English by its noun (Murom, Tula, Kyiv, Moscow): the adjective
//   ending is taken off and the stem compared with the place.
// All entries are ASCII lower case and compared after spelling folds (fold.ts), as tokens are.
import { foldToken } from './fold.ts';

/** concept: [English words or phrases, Russian/Ukrainian stems (the inflection ending is added)]. */
const VOCABULARY: Record<string, [string[], string[]]> = {
  plant: [
    ['plant', 'factory', 'works', 'mill'],
    ['zavod', 'fabrik', 'fabryk', 'kombinat'],
  ],
  instrumentMaking: [
    ['instrument making', 'instrument building', 'instrument engineering'],
    ['priborostroiteln', 'pryladobudivn'],
  ],
  machineBuilding: [
    ['machine building', 'mechanical engineering'],
    ['mashinostroiteln', 'mashynobudivn'],
  ],
  machineTool: [['machine tool'], ['stankostroiteln', 'verstatobudivn']],
  shipbuilding: [
    ['shipbuilding', 'ship building'],
    ['sudostroiteln', 'sudnobudivn'],
  ],
  shipyard: [['shipyard'], ['verf']],
  aircraftBuilding: [
    ['aircraft building', 'aircraft manufacturing'],
    ['aviastroiteln', 'litakobudivn'],
  ],
  aviation: [
    ['aviation', 'aircraft'],
    ['aviatsionn', 'aviatsiin'],
  ],
  engineBuilding: [['engine building'], ['motorostroiteln', 'dvigatelestroiteln']],
  research: [
    ['research', 'scientific research'],
    ['issledovatelsk', 'doslidn', 'nauchnoissledovatelsk', 'naukovodoslidn'],
  ],
  scientific: [
    ['scientific', 'science'],
    ['nauchn', 'naukov'],
  ],
  production: [
    ['production', 'manufacturing', 'industrial'],
    ['proizvodstvenn', 'vyrobnych', 'promyshlenn'],
  ],
  association: [['association'], ['obedinen', 'obiedinen', 'obiednann']],
  design: [['design'], ['konstruktorsk', 'proiektn', 'proektn']],
  bureau: [['bureau'], ['biuro', 'buro']],
  centre: [['centre', 'center'], ['tsentr']],
  state: [['state'], ['gosudarstvenn', 'derzhavn']],
  federal: [['federal'], ['federaln']],
  national: [['national'], ['natsionaln']],
  unitary: [['unitary'], ['unitarn']],
  enterprise: [['enterprise'], ['predpriiati', 'pidpryiemstv']],
  corporation: [['corporation'], ['korporatsi']],
  oil: [
    ['oil', 'petroleum'],
    ['neft', 'neftian', 'naft', 'naftov'],
  ],
  gas: [['gas'], ['gaz', 'gazov']],
  chemical: [['chemical'], ['khimichesk', 'khimichn']],
  metallurgical: [
    ['metallurgical', 'steel'],
    ['metallurgichesk', 'metalurgiin'],
  ],
  mining: [['mining'], ['gornodobyvaiushch', 'gorn', 'hirnychodobuvn']],
  electronic: [['electronic', 'electronics'], ['elektronn']],
  optical: [['optical'], ['optichesk', 'optychn']],
  radio: [['radio'], ['radiotekhnichesk', 'radiotekhnichn']],
  trading: [['trading', 'trade', 'commercial'], ['torgov']],
  transport: [['transport', 'transportation'], ['transportn']],
  construction: [
    ['construction', 'building'],
    ['stroiteln', 'budivn'],
  ],
  heavy: [['heavy'], ['tiazhel', 'vazhk']],
  precision: [['precision'], ['tochn']],
  arms: [
    ['arms', 'weapons', 'armaments'],
    ['oruzhein', 'zbroin'],
  ],
  mechanical: [['mechanical'], ['mekhanichesk', 'mekhanichn']],
  military: [
    ['military', 'defence', 'defense'],
    ['voienn', 'voenn', 'oboronn'],
  ],
  institute: [['institute'], ['institut']],
  academy: [['academy'], ['akademi']],
};

/**
 * Inflection endings of Russian/Ukrainian nouns and adjectives after spelling folds (y, j → i,
 * doubled letters single: "-nyy" → "-ni", "-naya" → "-naia", "-noye" → "-noie", "-noe" → "-no").
 */
const ENDINGS = [
  '',
  'a',
  'u',
  'e',
  'i',
  'o',
  'ia',
  'iu',
  'ie',
  'oi',
  'ei',
  'om',
  'ov',
  'ami',
  'akh',
  'aia',
  'oie',
  'ogo',
  'ikh',
  'omu',
];

export interface Translation {
  concept: string;
  language: 'en' | 'slavic';
}

const ENGLISH = new Map<string, string>();
const SLAVIC_STEMS = new Map<string, string>();
for (const [concept, [english, stems]] of Object.entries(VOCABULARY)) {
  for (const phrase of english) ENGLISH.set(foldToken(phrase.replace(/ /g, '')), concept);
  for (const stem of stems) SLAVIC_STEMS.set(foldToken(stem), concept);
}

// Memo: every organisation word is looked up when a name is analysed, and words recur.
const memo = new Map<string, Translation | null>();

/** What a folded word (or a joined run of words, "instrumentmaking") means, if it is in the vocabulary. */
export function translationOf(folded: string): Translation | undefined {
  let t = memo.get(folded);
  if (t === undefined) {
    t = lookUp(folded) ?? null;
    if (memo.size >= 50_000) memo.clear();
    memo.set(folded, t);
  }
  return t ?? undefined;
}

function lookUp(folded: string): Translation | undefined {
  const english = ENGLISH.get(folded);
  if (english !== undefined) return { concept: english, language: 'en' };
  for (const ending of ENDINGS) {
    if (!folded.endsWith(ending) || folded.length - ending.length < 3) continue;
    const concept = SLAVIC_STEMS.get(folded.slice(0, folded.length - ending.length));
    if (concept !== undefined) return { concept, language: 'slavic' };
  }
  return undefined;
}

/** A place adjective's stem ("muromski" → "murom", "tulskaia" → "tul"), folded. */
const PLACE_ADJECTIVE = /^([a-z]{3,}?)sk(?:i|ii|a|aia|ia|o|oie|oi|ogo|ikh|e|ie)$/;
export const placeAdjectiveStem = (folded: string) => PLACE_ADJECTIVE.exec(folded)?.[1];

/** True when `noun` is the place that `stem` (of a place adjective) names: Murom, Tula, Izhevsk, Moscow. */
export function namesPlace(stem: string, noun: string): boolean {
  if (noun === stem) return true;
  const base = noun.endsWith('sk') ? noun.slice(0, -2) : noun.replace(/[aeiou]$/, '');
  return base === stem;
}
