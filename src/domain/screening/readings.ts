// Romanised readings of a name written in Hangul, Han or Kana. A character-by-character ASCII
// table reads Chinese characters only as Mandarin and Hangul one way only, while lists spell
// such names in several systems; each reading here is one whole-name spelling in one system,
// compared with a Latin name like any Latin spelling, and named in the explanation
// ("Hangul → McCune–Reischauer: kim chong un").
import { chineseReadings, isHan } from './chinese-romanise.ts';
import { hasKana, japaneseReadings } from './japanese-romanise.ts';
import { isHangul, KOREAN_SYSTEM_NAMES, koreanReadings } from './korean-romanise.ts';
import type { NameKind } from './types.ts';

interface Reading {
  /** The romanised name (ASCII, words separated by spaces). */
  text: string;
  /** How it was read, as explained to people: "Hangul → Revised Romanization". */
  via: string;
}

/** At most this many readings per name: every one is compared with every Latin candidate name. */
const MAX_READINGS = 8;

const memo = new Map<string, Reading[]>();
const MEMO_LIMIT = 20_000;

function compute(name: string, kind: NameKind): Reading[] {
  const person = kind === 'person';
  const out: Reading[] = [];
  if (isHangul(name)) {
    for (const r of koreanReadings(name, person))
      out.push({ text: r.text, via: `Hangul → ${KOREAN_SYSTEM_NAMES[r.system]}` });
  }
  const kana = hasKana(name);
  if (isHan(name) && !kana) {
    for (const r of chineseReadings(name, person))
      out.push({ text: r.text, via: r.system === 'pinyin' ? 'Hanzi → pinyin' : 'Hanzi → Wade–Giles' });
  }
  // Kanji alone may be Chinese or Japanese (高市早苗, 習近平): both readings are tried.
  if (kana || isHan(name)) {
    for (const r of japaneseReadings(name))
      out.push({ text: r.text, via: r.system === 'kana' ? 'Kana → Hepburn' : 'Kanji → Japanese reading (Hepburn)' });
  }
  const seen = new Set<string>();
  return out.filter((r) => r.text.trim() !== '' && !seen.has(r.text) && seen.add(r.text)).slice(0, MAX_READINGS);
}

/** Readings of a name with Hangul, Han or Kana in it; empty for every other name. */
export function readingsOf(name: string, kind: NameKind): Reading[] {
  if (!/[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(name)) return [];
  const key = `${kind}|${name}`;
  let r = memo.get(key);
  if (!r) {
    r = compute(name, kind);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(key, r);
  }
  return r;
}
