// Spelling folds applied to ASCII tokens before comparison, on both sides alike. They merge
// spellings that are the same name in different romanisation conventions, which edit
// distance alone scores too low:
// - Scandinavian vs English romanisation of Cyrillic: tsj/ch, sj/sh, zj/zh, j/y (Tsjekhov,
//   Zjirinovskij, Jevgenij vs Chekhov, Zhirinovsky, Yevgeniy);
// - German/Nordic letters written out: ae/ä/æ, oe/ö/ø, ue/ü, aa/å (Mueller, Joergensen, Aase);
// - x/ks, ph/f, q/k, c/k, w/v, ou/u, y/i and doubled letters (Alexander/Aleksandr,
//   Joseph/Josef, Qaida/Kaida, Mohammed/Mohamed, Yousef/Yusuf, Sergey/Sergei).
// Folding both sides can make two distinct spellings equal; the score never relies on
// folding alone (birth year and the other tokens still count).

const RULES: [RegExp, string][] = [
  [/tsj/g, 'ch'],
  [/sj/g, 'sh'],
  [/zj/g, 'zh'],
  [/ph/g, 'f'],
  [/x/g, 'ks'],
  [/q/g, 'k'],
  [/w/g, 'v'],
  [/c/g, 'k'],
  [/j/g, 'y'],
  [/y/g, 'i'],
  [/aa/g, 'a'],
  [/ae/g, 'a'],
  [/oe/g, 'o'],
  [/ue/g, 'u'],
  [/ou/g, 'u'],
  [/(.)\1+/g, '$1'],
];

// Memo: the same words recur across names, candidates and requests.
const memo = new Map<string, string>();

export function foldToken(token: string): string {
  let t = memo.get(token);
  if (t !== undefined) return t;
  t = token;
  for (const [re, to] of RULES) t = t.replace(re, to);
  if (memo.size >= 50_000) memo.clear();
  memo.set(token, t);
  return t;
}
