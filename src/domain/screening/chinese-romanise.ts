// Hanzi romanisation: pinyin per character (any-ascii's table gives the Mandarin reading,
// toneless), and Wade–Giles, which older lists and Taiwanese names use (Hsi Chin-p'ing, Mao
// Tse-tung, Chiang Kai-shek). Wade–Giles is derived from the pinyin syllable by the published
// correspondence of initials and finals, written as ASCII lists write it (no apostrophes or
// umlauts: aspiration marks vanish in our tokens anyway).
import anyAscii from 'any-ascii';

export const isHan = (s: string) => /\p{Script=Han}/u.test(s);

/** Whole syllables whose Wade–Giles form is not the regular one. */
const WG_SYLLABLES: Record<string, string> = {
  zi: 'tzu',
  ci: 'tzu',
  si: 'ssu',
  zhi: 'chih',
  chi: 'chih',
  shi: 'shih',
  ri: 'jih',
  er: 'erh',
  you: 'yu',
  yan: 'yen',
  ye: 'yeh',
  yong: 'yung',
  yue: 'yueh',
  yuan: 'yuan',
  yun: 'yun',
  yi: 'i',
  ke: 'ko',
  he: 'ho',
  ge: 'ko',
  e: 'o',
};

/** Pinyin initial → Wade–Giles (aspirated ones lose their apostrophe: p' → p). */
const WG_INITIAL: [string, string][] = [
  ['zh', 'ch'],
  ['ch', 'ch'],
  ['sh', 'sh'],
  ['b', 'p'],
  ['p', 'p'],
  ['d', 't'],
  ['t', 't'],
  ['g', 'k'],
  ['k', 'k'],
  ['j', 'ch'],
  ['q', 'ch'],
  ['x', 'hs'],
  ['z', 'ts'],
  ['c', 'ts'],
  ['r', 'j'],
  ['h', 'h'],
  ['m', 'm'],
  ['f', 'f'],
  ['n', 'n'],
  ['l', 'l'],
  ['s', 's'],
  ['w', 'w'],
  ['y', 'y'],
];

/** Pinyin final → Wade–Giles final. */
const WG_FINAL: [RegExp, string][] = [
  [/^ong$/, 'ung'],
  [/^iong$/, 'iung'],
  [/^ian$/, 'ien'],
  [/^ie$/, 'ieh'],
  [/^ue$/, 'ueh'],
  [/^ui$/, 'uei'],
  [/^uo$/, 'o'],
  [/^e$/, 'e'],
];

export function wadeGiles(pinyin: string): string {
  const whole = Object.hasOwn(WG_SYLLABLES, pinyin) ? WG_SYLLABLES[pinyin] : undefined;
  if (whole) return whole;
  const init = WG_INITIAL.find(([p]) => pinyin.startsWith(p));
  const [pi, wi] = init ?? ['', ''];
  let final = pinyin.slice(pi.length);
  for (const [re, to] of WG_FINAL) if (re.test(final)) final = final.replace(re, to);
  // After j/q/x pinyin writes ü as u (ju = jü); Wade–Giles keeps ü, written u: nothing to do.
  return wi + final;
}

/** Compound surnames (two characters) that must stay one surname. */
const DOUBLE_SURNAMES = new Set([
  '欧阳',
  '歐陽',
  '司马',
  '司馬',
  '诸葛',
  '諸葛',
  '上官',
  '东方',
  '東方',
  '夏侯',
  '皇甫',
]);

const pinyinOf = (ch: string) =>
  anyAscii(ch)
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/**
 * Pinyin and Wade–Giles readings of a name in Han characters: persons as "surname given
 * syllables" (the syllables are joined again where the other name writes them as one word:
 * Jinping), organisations word by word with their syllables joined.
 */
export function chineseReadings(name: string, person: boolean): { system: 'pinyin' | 'wade-giles'; text: string }[] {
  const words = name.split(/\s+/).filter(isHan);
  if (words.length === 0) return [];
  const syllables = (w: string) => [...w].filter(isHan).map(pinyinOf).filter(Boolean);
  let parts: string[][];
  if (person && words.length === 1) {
    const chars = [...words[0]].filter(isHan);
    const n = chars.length >= 3 && DOUBLE_SURNAMES.has(chars.slice(0, 2).join('')) ? 2 : 1;
    parts = [[chars.slice(0, n).map(pinyinOf).join('')], ...chars.slice(n).map((c) => [pinyinOf(c)])];
  } else {
    parts = words.map(syllables);
  }
  const render = (f: (s: string) => string) => parts.map((p) => p.map(f).join('')).join(' ');
  return [
    { system: 'pinyin', text: render((s) => s) },
    { system: 'wade-giles', text: render(wadeGiles) },
  ];
}
