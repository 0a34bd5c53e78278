// Hangul romanisation by syllable decomposition (Unicode arithmetic: a syllable is
// 0xAC00 + (initial × 21 + vowel) × 28 + final). Lists spell Korean names three ways: Revised
// Romanization (South Korea since 2000: Gim Jeong-eun), McCune–Reischauer (North Korea and older
// lists: Kim Chŏng-ŭn, written here without breves and apostrophes, as ASCII lists do) and the
// customary spellings of surnames (Kim, Park, Lee, Choi) with a voiced given name (Kim Jong Un).
// Each system is applied to the name as a whole, so that a reading is one consistent spelling.

const FIRST = 0xac00;
const LAST = 0xd7a3;

const RR_INITIAL = ['g', 'kk', 'n', 'd', 'tt', 'r', 'm', 'b', 'pp', 's', 'ss', '', 'j', 'jj', 'ch', 'k', 't', 'p', 'h'];
/** McCune–Reischauer initials at the start of a word (unvoiced); VOICED below between sounds. */
const MR_INITIAL = [
  'k',
  'kk',
  'n',
  't',
  'tt',
  'r',
  'm',
  'p',
  'pp',
  's',
  'ss',
  '',
  'ch',
  'tch',
  'ch',
  'k',
  't',
  'p',
  'h',
];
const MR_VOICED: Record<string, string> = { k: 'g', t: 'd', p: 'b', ch: 'j' };
/** Initials that MR voices after a vowel or a voiced final (ㄱ ㄷ ㅂ ㅈ only; ㅊ ㅋ ㅌ ㅍ stay aspirated). */
const VOICEABLE = new Set([0, 3, 7, 12]);

const RR_VOWEL = [
  'a',
  'ae',
  'ya',
  'yae',
  'eo',
  'e',
  'yeo',
  'ye',
  'o',
  'wa',
  'wae',
  'oe',
  'yo',
  'u',
  'wo',
  'we',
  'wi',
  'yu',
  'eu',
  'ui',
  'i',
];
/** MR vowels as written in ASCII lists: ŏ → o, ŭ → u. */
const MR_VOWEL = [
  'a',
  'ae',
  'ya',
  'yae',
  'o',
  'e',
  'yo',
  'ye',
  'o',
  'wa',
  'wae',
  'oe',
  'yo',
  'u',
  'wo',
  'we',
  'wi',
  'yu',
  'u',
  'ui',
  'i',
];

/** Finals as pronounced at the end of a syllable (the same in both systems). */
const FINAL = [
  '',
  'k',
  'k',
  'k',
  'n',
  'n',
  'n',
  't',
  'l',
  'k',
  'm',
  'l',
  'l',
  'l',
  'p',
  'l',
  'm',
  'p',
  'p',
  't',
  't',
  'ng',
  't',
  't',
  'k',
  't',
  'p',
  't',
];
const RR_FINAL = FINAL.map((f, i) => (i === 1 || i === 2 ? 'g' : i === 7 ? 'd' : i === 17 ? 'b' : f));

interface Jamo {
  initial: number;
  vowel: number;
  final: number;
}

const decompose = (ch: string): Jamo | undefined => {
  const c = ch.codePointAt(0)!;
  if (c < FIRST || c > LAST) return undefined;
  const n = c - FIRST;
  return { initial: Math.floor(n / 588), vowel: Math.floor((n % 588) / 28), final: n % 28 };
};

export const isHangul = (s: string) => /\p{Script=Hangul}/u.test(s);

/**
 * Customary Latin spellings of the common Korean surnames (public usage: passports and lists),
 * which neither system produces: 이 is Lee/Yi/Rhee, 박 Park, 최 Choi.
 */
const SURNAMES: Record<string, string[]> = {
  김: ['kim'],
  이: ['lee', 'yi', 'rhee', 'ri'],
  리: ['ri', 'lee'],
  박: ['park', 'pak'],
  최: ['choi', 'choe'],
  정: ['jung', 'chung', 'jeong', 'chong'],
  강: ['kang'],
  조: ['cho', 'jo'],
  윤: ['yoon', 'yun'],
  장: ['jang', 'chang'],
  임: ['lim', 'im', 'rim'],
  림: ['rim', 'lim'],
  한: ['han'],
  오: ['oh', 'o'],
  서: ['seo', 'suh', 'so'],
  신: ['shin', 'sin'],
  권: ['kwon', 'gwon'],
  황: ['hwang'],
  안: ['ahn', 'an'],
  송: ['song'],
  류: ['ryu', 'yoo', 'yu'],
  유: ['yoo', 'yu'],
  전: ['jeon', 'jun', 'chun', 'chon'],
  홍: ['hong'],
  고: ['ko', 'go'],
  문: ['moon', 'mun'],
  손: ['son', 'sohn'],
  배: ['bae', 'pae'],
  백: ['baek', 'paek', 'paik'],
  허: ['heo', 'huh', 'ho'],
  노: ['roh', 'noh', 'no'],
  로: ['ro', 'roh'],
  곽: ['kwak', 'gwak'],
  성: ['sung', 'seong', 'song'],
  주: ['joo', 'ju', 'chu'],
  우: ['woo', 'u'],
  구: ['koo', 'ku', 'gu'],
  현: ['hyun', 'hyon'],
  명: ['myung', 'myong'],
  려: ['ryo', 'yeo'],
  량: ['ryang', 'yang'],
  양: ['yang'],
};

/** Two-syllable surnames (rare, but they must not be split as surname + given name). */
const DOUBLE_SURNAMES = new Set(['남궁', '황보', '제갈', '선우', '독고', '사공', '서문']);

type KoreanSystem = 'rr' | 'mr' | 'common';

export const KOREAN_SYSTEM_NAMES: Record<KoreanSystem, string> = {
  rr: 'Revised Romanization',
  mr: 'McCune–Reischauer',
  common: 'customary surname spelling',
};

/** One word (a run of Hangul syllables) in one system; `initialOfWord` = MR's unvoiced start. */
function romaniseWord(word: string, system: KoreanSystem, voicedStart: boolean): string {
  let out = '';
  let prevVoiced = voicedStart;
  for (const ch of word) {
    const j = decompose(ch);
    if (!j) continue;
    if (system === 'rr') {
      out += RR_INITIAL[j.initial] + RR_VOWEL[j.vowel] + RR_FINAL[j.final];
    } else {
      const base = MR_INITIAL[j.initial];
      const initial = prevVoiced && VOICEABLE.has(j.initial) ? (MR_VOICED[base] ?? base) : base;
      out += initial + MR_VOWEL[j.vowel] + FINAL[j.final];
    }
    // A vowel or a nasal/liquid final leaves the next plain stop voiced.
    prevVoiced = j.final === 0 || [4, 8, 16, 21].includes(j.final);
  }
  return out;
}

/** Splits a Korean person name written as one word into surname and given-name syllables. */
function personParts(word: string): { surname: string; given: string[] } {
  const chars = [...word];
  const n = chars.length >= 3 && DOUBLE_SURNAMES.has(chars.slice(0, 2).join('')) ? 2 : 1;
  return { surname: chars.slice(0, n).join(''), given: chars.slice(n) };
}

/**
 * Readings of a Hangul name in each system: persons as "surname given-syllables" (lists write
 * "Kim Jong Un", "Kim Jong-un" and "Kim Jongun"; the syllables are joined again where the other
 * name has them as one word), organisations word by word.
 */
export function koreanReadings(name: string, person: boolean): { system: KoreanSystem; text: string }[] {
  const words = name.split(/\s+/).filter(isHangul);
  if (words.length === 0) return [];
  const out: { system: KoreanSystem; text: string }[] = [];
  if (!person || words.length > 1) {
    for (const system of ['rr', 'mr'] as const)
      out.push({ system, text: words.map((w) => romaniseWord(w, system, false)).join(' ') });
    return out;
  }
  const { surname, given } = personParts(words[0]);
  // Given-name syllables: MR voices a syllable after a vowel or voiced final within the name.
  const givenIn = (system: KoreanSystem, voiced: boolean) =>
    given.map((g, i) => romaniseWord(g, system, i > 0 ? endsVoiced(given[i - 1]) : voiced));
  out.push({ system: 'rr', text: [romaniseWord(surname, 'rr', false), ...givenIn('rr', false)].join(' ') });
  out.push({ system: 'mr', text: [romaniseWord(surname, 'mr', false), ...givenIn('mr', false)].join(' ') });
  // Customary: the usual surname spelling with a given name voiced as it is pronounced after it.
  for (const s of (Object.hasOwn(SURNAMES, surname) ? SURNAMES[surname] : undefined) ?? [
    romaniseWord(surname, 'mr', false),
  ]) {
    out.push({ system: 'common', text: [s, ...givenIn('mr', true)].join(' ') });
    out.push({ system: 'common', text: [s, ...givenIn('rr', false)].join(' ') });
  }
  return out;
}

const endsVoiced = (syllable: string) => {
  const j = decompose(syllable);
  return j !== undefined && (j.final === 0 || [4, 8, 16, 21].includes(j.final));
};
