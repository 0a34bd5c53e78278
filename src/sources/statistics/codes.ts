// Which of a bureau's area and industry codes are a real municipality or a real NACE division.
// The bureaus mix totals, groupings and "unknown" codes into the same variable as the real
// codes, and several of them look like a division or a municipality by shape alone
// (upstream/statistics-tables.md §1.3):
// - SSB `00` (uoppgitt) in 07091 and 11419 is two digits but no division;
// - SSB `9999` (uoppgitt kommune) in 06944 is four digits but no municipality;
// - DST's DB07 10-grouping codes `1`–`11` (GF11, GF12, DEMO16) are not divisions: `10` is
//   "Kultur, fritid og anden service", `11` "Uoplyst aktivitet";
// - DST's 127-grouping equals a whole division only in the form `dd000` (`47000`); `10001`–
//   `10005` (split food industry) and `08090` (combined) are parts or mixes.
// Totals (`00`, `0`, `000`, `SSS`, `TOT`, `A-S`, `01-99`) never pass.

/** The NACE Rev. 2 divisions (01–99 has gaps: 04, 34, 40, 44, 48, 54, 57, 67, 76, 83, 89 do not exist). */
const DIVISIONS = new Set(
  [
    [1, 3],
    [5, 33],
    [35, 39],
    [41, 43],
    [45, 47],
    [49, 53],
    [55, 56],
    [58, 66],
    [68, 75],
    [77, 82],
    [84, 88],
    [90, 99],
  ].flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => String(a + i).padStart(2, '0'))),
);

export const isNaceDivision = (code: string): boolean => DIVISIONS.has(code);

const division = (d: string | undefined): string | null => (d !== undefined && DIVISIONS.has(d) ? d : null);

/** SSB, SCB and Statistics Finland write a division as its two digits ("47"); "00" is unspecified. */
export const twoDigitDivision = (code: string): string | null => division(/^(\d{2})$/.exec(code.trim())?.[1]);

/**
 * Statistics Denmark: a division only as a whole 127-group (`47000`). The bare `1`–`11` of the
 * 10-grouping, sections (`G`), 19-group letters and split groups (`10001`) are not.
 */
export const dstDivision = (code: string): string | null => division(/^(\d{2})000$/.exec(code.trim())?.[1]);

/**
 * SSB: a four-digit kommune number (`0301`; `K-0301` in the aggregation filters). The county part
 * `00` and `99` is no county, so `9999` (uoppgitt) and `0000` never pass; nor do the country
 * (`0`), counties (`03`) or Oslo's six-digit bydeler (`030101`).
 */
export function ssbMunicipality(code: string): string | null {
  const m = /^(?:K-)?(\d{4})$/.exec(code.trim());
  return m && !/^(00|99)/.test(m[1]) ? m[1] : null;
}

/** SCB: a four-digit kommun code (`0180`); the country `00` and the län (`01`) are two digits. */
export function scbMunicipality(code: string): string | null {
  const m = /^(\d{4})$/.exec(code.trim());
  return m && !/^(00|99)/.test(m[1]) ? m[1] : null;
}

/** Statistics Finland: `KU091` is a municipality; `SSS` (whole country), `MK01`, `SK…`, `HVA…` are not. */
export function statfiMunicipality(code: string): string | null {
  const m = /^KU(\d{3})$/.exec(code.trim());
  return m ? m[1] : null;
}

/** Statistics Denmark: kommune codes 101–860; `000` (the country) and `081`–`085` (regions) are not. */
export function dstMunicipality(code: string): string | null {
  const c = code.trim();
  return /^\d{3}$/.test(c) && Number(c) >= 101 && Number(c) <= 860 ? c : null;
}

/** The NACE Rev. 2 sections by their divisions (A 01–03 … U 99). */
const SECTIONS: [section: string, from: number, to: number][] = [
  ['A', 1, 3],
  ['B', 5, 9],
  ['C', 10, 33],
  ['D', 35, 35],
  ['E', 36, 39],
  ['F', 41, 43],
  ['G', 45, 47],
  ['H', 49, 53],
  ['I', 55, 56],
  ['J', 58, 63],
  ['K', 64, 66],
  ['L', 68, 68],
  ['M', 69, 75],
  ['N', 77, 82],
  ['O', 84, 84],
  ['P', 85, 85],
  ['Q', 86, 88],
  ['R', 90, 93],
  ['S', 94, 96],
  ['T', 97, 98],
  ['U', 99, 99],
];

/** The NACE section of a division ("62" -> "J"); null for what is no division. */
export function sectionOf(division: string): string | null {
  if (!DIVISIONS.has(division)) return null;
  const n = Number(division);
  return SECTIONS.find(([, from, to]) => n >= from && n <= to)![0];
}

/** A NACE section letter as the bureaus write it alone (`G`; SSB, SCB, DST's 19-grouping); never a range (`A-S`). */
export const naceSection = (code: string): string | null => {
  const c = code.trim();
  return /^[A-U]$/.test(c) ? c : null;
};

/**
 * Statistics Denmark's DB07 10-grouping (DEMO16, GF11, GF12: codes `1`–`11`) by NACE section:
 * 1 agriculture (A), 2 industry and utilities (B–E), 3 construction (F), 4 trade and transport
 * (G–I), 5 information and communication (J), 6 finance (K), 7 real estate (L), 8 business
 * services (M–N), 9 public administration, education and health (O–Q), 10 culture, leisure and
 * other services (R–S, and T–U with them here), 11 activity not stated (no section).
 */
const DST10: Record<string, string> = {
  A: '1',
  B: '2',
  C: '2',
  D: '2',
  E: '2',
  F: '3',
  G: '4',
  H: '4',
  I: '4',
  J: '5',
  K: '6',
  L: '7',
  M: '8',
  N: '8',
  O: '9',
  P: '9',
  Q: '9',
  R: '10',
  S: '10',
  T: '10',
  U: '10',
};

/** The key a DB07 10-group is stored under (`DB07-10:4`): never a division, section or municipality. */
export const dstGroupKey = (group: string): string => `DB07-10:${group}`;

/** A DB07 10-group code of a table published by that grouping (`4`); `TOT` and `11` (not stated) are no group of a division. */
export function dstGroup(code: string): string | null {
  const c = code.trim();
  return /^(?:[1-9]|10)$/.test(c) ? c : null;
}

/** The DB07 10-group of a NACE division ("47" -> "4"). */
export function dstGroupOfDivision(division: string): string | null {
  const section = sectionOf(division);
  return section === null ? null : DST10[section];
}
