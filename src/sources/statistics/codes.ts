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
