// Romanised readings of names in Hangul, Han and Kana (readings.ts and the three romanisers),
// Arabic compounds, and the scripts compared as before (Hebrew, Greek, Cyrillic, Thai). Every
// example was written for this file from public romanisation rules and public names, none taken
// from the name_bench file the matcher is evaluated on.
import { describe, expect, it } from 'vitest';
import { wadeGiles } from '../../../src/domain/screening/chinese-romanise.ts';
import { japaneseDictionaryLoadMs } from '../../../src/domain/screening/japanese-romanise.ts';
import { koreanReadings } from '../../../src/domain/screening/korean-romanise.ts';
import { DEFAULT_THRESHOLD } from '../../../src/domain/screening/rank.ts';
import { readingsOf } from '../../../src/domain/screening/readings.ts';
import { scoreMatch } from '../../../src/domain/screening/score.ts';

const score = (query: string, listed: string) =>
  scoreMatch({ name: query, kind: 'person' }, { name: listed, schema: 'Person' });
const hit = (q: string, l: string) => score(q, l).score >= DEFAULT_THRESHOLD;
const via = (q: string, l: string) =>
  score(q, l).explanation.adjustments.find((a) => a.feature === 'transliteration')?.reason;

describe('Hangul', () => {
  it('romanises by syllable decomposition in Revised Romanization and McCune–Reischauer', () => {
    const texts = (name: string) => koreanReadings(name, true).map((r) => `${r.system}:${r.text}`);
    expect(texts('김정은')).toEqual(
      expect.arrayContaining(['rr:gim jeong eun', 'mr:kim chong un', 'common:kim jong un']),
    );
    // MR voices a plain stop after a vowel within the given name (일성 il-song, 대중 tae-jung).
    expect(texts('김대중')).toEqual(expect.arrayContaining(['mr:kim tae jung', 'rr:gim dae jung']));
    expect(texts('박근혜')).toEqual(expect.arrayContaining(['common:park geun hye', 'mr:pak kun hye']));
    expect(texts('남궁민')[0]).toBe('rr:namgung min');
  });

  it('matches each system and the customary surname spellings, and names the system used', () => {
    expect(hit('Gim Jeong-eun', '김정은')).toBe(true);
    expect(hit('Kim Chong Un', '김정은')).toBe(true);
    expect(hit('Kim Jongun', '김정은')).toBe(true);
    expect(hit('Choi Soon-sil', '최순실')).toBe(true);
    expect(hit('Lee Jae-myung', '이재명')).toBe(true);
    expect(via('Kim Chong Un', '김정은')).toBe('Hangul → McCune–Reischauer: kim chong un');
    expect(score('Kim Jong Un', '김정은').matchType).toBe('transliterated');
  });

  it('a syllable with another consonant is another syllable, and a surname alone is nobody', () => {
    expect(hit('Kim Jong Il', '김정은')).toBe(false);
    expect(hit('Lee Jae-yong', '이재명')).toBe(false);
    expect(hit('Park', '박')).toBe(false);
    expect(hit('Choi Soon-sil', '최순자')).toBe(false);
  });
});

describe('Hanzi', () => {
  it('derives Wade–Giles from pinyin by the published correspondences', () => {
    expect(['xi', 'jin', 'ping', 'zhou', 'qing', 'zi', 'shi', 'deng', 'xiao', 'zhong'].map(wadeGiles)).toEqual([
      'hsi',
      'chin',
      'ping',
      'chou',
      'ching',
      'tzu',
      'shih',
      'teng',
      'hsiao',
      'chung',
    ]);
  });

  it('matches pinyin with the given name joined or apart, and Wade–Giles', () => {
    expect(hit('Xi Jinping', '习近平')).toBe(true);
    expect(hit('Xi Jin Ping', '习近平')).toBe(true);
    expect(hit('Hsi Chin-ping', '习近平')).toBe(true);
    expect(hit('Chou En-lai', '周恩来')).toBe(true);
    expect(via('Mao Tse-tung', '毛泽东')).toBe('Hanzi → Wade–Giles: mao tse tung');
  });

  it('other given names, and short common syllables alone, never match', () => {
    expect(hit('Xi Jinhua', '习近平')).toBe(false);
    expect(hit('Mao Zemin', '毛泽东')).toBe(false);
    expect(hit('Li', '李')).toBe(false);
    expect(hit('Ma Li', '马丽')).toBe(false);
    const r = score('Wang', '王');
    expect(r.explanation.adjustments.map((a) => a.feature)).toContain('shortReading');
  });
});

describe('Japanese', () => {
  it('reads kana by Hepburn, long vowels as lists write them', () => {
    expect(readingsOf('やまもと たろう', 'person').map((r) => r.text)).toEqual(['yamamoto taro', 'yamamoto tarou']);
    expect(hit('Yamamoto Taro', 'やまもと たろう')).toBe(true);
    expect(hit('Kenji Kato', 'カトウ ケンジ')).toBe(true);
    expect(hit('Kenji Sato', 'カトウ ケンジ')).toBe(false);
    expect(via('Yamamoto Taro', 'やまもと たろう')).toBe('Kana → Hepburn: yamamoto taro');
  });

  it('reads kanji names by their Japanese readings from the dictionary, loaded on first use', () => {
    expect(hit('Fumio Kishida', '岸田文雄')).toBe(true);
    expect(hit('Kishida Fumio', '岸田文雄')).toBe(true);
    expect(hit('Sanae Takaichi', '高市早苗')).toBe(true);
    expect(via('Sanae Takaichi', '高市早苗')).toBe('Kanji → Japanese reading (Hepburn): takaichi sanae');
    expect(japaneseDictionaryLoadMs()).toBeGreaterThan(0);
    // The Mandarin reading stays for Chinese names in the same characters.
    expect(readingsOf('高市早苗', 'person').map((r) => r.via)).toContain('Hanzi → pinyin');
  });

  it('another surname or given name in kanji is another person', () => {
    expect(hit('Fumio Kishimoto', '岸田文雄')).toBe(false);
    expect(hit('Taro Yamada', '山本太郎')).toBe(false);
    expect(hit('Ichiro Sato', '鈴木一郎')).toBe(false);
  });
});

describe('Arabic compounds and particles', () => {
  it('reads عبد with the next word as one name, however the Latin spelling splits it', () => {
    expect(hit('Abdullah', 'عبد الله')).toBe(true);
    expect(hit('Abd Allah', 'عبد الله')).toBe(true);
    expect(hit('Abdul Rahman', 'عبد الرحمن')).toBe(true);
    expect(hit('Abdelkader', 'عبد القادر')).toBe(true);
    expect(hit('Abdul Karim', 'عبد الله')).toBe(false);
  });

  it('reads بن as bin, so the father stays the father across scripts', () => {
    expect(hit('Hamad bin Khalifa', 'حمد بن خليفة')).toBe(true);
    expect(hit('Khalifa bin Hamad', 'حمد بن خليفة')).toBe(false);
  });
});

describe('Hebrew, Greek, Cyrillic and Thai', () => {
  it('match their Latin spellings and not another person of the same family', () => {
    expect(hit('Yair Lapid', 'יאיר לפיד')).toBe(true);
    expect(hit('Benjamin Gantz', 'בנימין גנץ')).toBe(true);
    expect(hit('Yair Golan', 'יאיר לפיד')).toBe(false);
    expect(hit('Kostas Karamanlis', 'Κώστας Καραμανλής')).toBe(true);
    expect(hit('Kostas Simitis', 'Κώστας Καραμανλής')).toBe(false);
    expect(hit('Mikhail Mishustin', 'Михаил Мишустин')).toBe(true);
    expect(hit('Mikhail Mishin', 'Михаил Мишустин')).toBe(false);
    // Letters under the Thai silent mark are not read (จันทร์ is "chan").
    expect(hit('Prayut Chan-o-cha', 'ประยุทธ์ จันทร์โอชา')).toBe(true);
    expect(hit('Preecha Chan-o-cha', 'ประยุทธ์ จันทร์โอชา')).toBe(false);
  });
});
