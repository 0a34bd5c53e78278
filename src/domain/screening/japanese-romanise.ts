// Japanese romanisation. Kana are read by wanakana (Hepburn). Kanji have no reading of their
// own: a name in kanji is read by kuromoji's morphological analyser with its IPADIC dictionary,
// which lists surnames and given names with their readings (岸田 キシダ, 文雄 フミオ). The
// dictionary ships in the package (about 18 MB on disk, some 260 MB in memory, 2 s to build
// on this machine), so it is loaded on the first name that needs it, synchronously, because
// scoring is synchronous and a reading must not depend on whether a load had finished.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { toRomaji } from 'wanakana';

export const hasKana = (s: string) => /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(s);

interface KuromojiToken {
  surface_form: string;
  reading?: string;
  pos_detail_2?: string;
}
interface Tokenizer {
  tokenize(text: string): KuromojiToken[];
}

let tokenizer: Tokenizer | null | undefined;
let loadMs = 0;

/** Start-up cost of the dictionary (0 until it was needed), for benchmarks. */
export const japaneseDictionaryLoadMs = () => loadMs;

function loadTokenizer(): Tokenizer | null {
  if (tokenizer !== undefined) return tokenizer;
  const t = performance.now();
  try {
    const require = createRequire(import.meta.url);
    const root = path.dirname(require.resolve('@sglkc/kuromoji/package.json'));
    // The package's own loader reads the files asynchronously; its base class takes any reader.
    const Loader = require(path.join(root, 'src/loader/DictionaryLoader.js')) as new (dir: string) => {
      loadArrayBuffer: (file: string, cb: (err: unknown, buf?: ArrayBuffer) => void) => void;
      load: (cb: (err: unknown, dic: unknown) => void) => void;
    };
    const TokenizerClass = require(path.join(root, 'src/Tokenizer.js')) as new (dic: unknown) => Tokenizer;
    const loader = new Loader(path.join(root, 'dict'));
    loader.loadArrayBuffer = (file, cb) => cb(null, new Uint8Array(gunzipSync(readFileSync(file))).buffer);
    let built: Tokenizer | null = null;
    loader.load((err, dic) => {
      if (!err) built = new TokenizerClass(dic);
    });
    tokenizer = built;
  } catch {
    tokenizer = null;
  }
  loadMs = Math.round(performance.now() - t);
  return tokenizer;
}

const APOSTROPHE = /'/g;

/** Hepburn as lists write it: long vowels without macrons (ō → o: Satō → Sato, Shinzō → Shinzo). */
const shortVowels = (s: string) => s.replace(/ou/g, 'o').replace(/oo/g, 'o').replace(/uu/g, 'u');

const kanaToLatin = (kana: string) => toRomaji(kana).toLowerCase().replace(APOSTROPHE, '');

/**
 * Hepburn readings of a Japanese name: kana directly, kanji through the dictionary (persons as
 * the dictionary splits them, surname then given name). Empty when a kanji word has no reading
 * in the dictionary: a guess would be worse than the Chinese reading alone.
 */
export function japaneseReadings(name: string): { system: 'kana' | 'kanji'; text: string }[] {
  const words = name.split(/\s+/).filter((w) => /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(w));
  if (words.length === 0) return [];
  const kanji = words.some((w) => /\p{Script=Han}/u.test(w));
  const parts: string[] = [];
  if (kanji) {
    const tk = loadTokenizer();
    if (!tk) return [];
    for (const w of words) {
      for (const t of tk.tokenize(w)) {
        if (/\p{Script=Han}/u.test(t.surface_form) && !t.reading) return [];
        const latin = kanaToLatin(t.reading ?? t.surface_form);
        if (latin) parts.push(latin);
      }
    }
  } else {
    for (const w of words) parts.push(kanaToLatin(w.replace(/[・･]/g, ' ')));
  }
  const text = parts.join(' ').replace(/[^a-z ]/g, '');
  const system = kanji ? 'kanji' : 'kana';
  const short = shortVowels(text);
  return short === text
    ? [{ system, text }]
    : [
        { system, text: short },
        { system, text },
      ];
}
