// talisman 1.1.4 is CommonJS and ships no type declarations; we import only these two
// subpath modules (their `module.exports` is the function itself).
declare module 'talisman/metrics/jaro-winkler.js' {
  /** Jaro-Winkler similarity in [0, 1] (1 = identical). */
  const jaroWinkler: (a: string, b: string) => number;
  export default jaroWinkler;
}

declare module 'talisman/phonetics/double-metaphone.js' {
  /** Double Metaphone: [primary, secondary] codes (equal when the word has one reading). */
  const doubleMetaphone: (word: string) => [string, string];
  export default doubleMetaphone;
}
