// Field-level reading of Bolagsverket's bulk file (upstream/FORMATS.md §7.2): `;`-separated lines
// whose fields are usually wrapped in double quotes (`""` = a literal quote), and whose values are
// composites joined with `$` (several names joined with `|`).
//
// Hand-written rather than csv-parse because the real file has stray, unescaped quotes inside
// quoted descriptions (`24" skärm`): a strict CSV reader either fails on them or, worse, lets one
// swallow the following lines. Here a record never spans more than the lines the caller joins,
// and a quote only closes a field when it is followed by `;` or the end of the line.

interface SplitLine {
  fields: string[];
  /** True when the line ended inside a quoted field (a line break inside a value). */
  open: boolean;
}

export function splitBolagsverketLine(line: string): SplitLine {
  const fields: string[] = [];
  let i = 0;
  const n = line.length;
  for (;;) {
    if (line.charCodeAt(i) === 34 /* " */) {
      let value = '';
      let j = i + 1;
      let closed = false;
      while (j < n) {
        const q = line.indexOf('"', j);
        if (q === -1) {
          value += line.slice(j);
          j = n;
          break;
        }
        value += line.slice(j, q);
        if (line.charCodeAt(q + 1) === 34) {
          value += '"'; // escaped quote
          j = q + 2;
        } else if (q + 1 === n || line.charCodeAt(q + 1) === 59 /* ; */) {
          j = q + 1;
          closed = true;
          break;
        } else {
          value += '"'; // stray quote inside the value: keep it
          j = q + 1;
        }
      }
      fields.push(value);
      if (!closed) return { fields, open: true };
      if (j >= n) return { fields, open: false };
      i = j + 1; // past the ';'
    } else {
      const semi = line.indexOf(';', i);
      if (semi === -1) {
        fields.push(line.slice(i));
        return { fields, open: false };
      }
      fields.push(line.slice(i, semi));
      i = semi + 1;
    }
    if (i === n) {
      fields.push(''); // trailing ';' → one more, empty field
      return { fields, open: false };
    }
  }
}

/** `a$b$$c` → ['a', 'b', '', 'c']; parts are trimmed. */
export function splitComposite(value: string): string[] {
  return value.split('$').map((p) => p.trim());
}

/** The code before the type suffix: "AB-ORGFO" → "AB", "KK-AVOMFO" → "KK", "SE-LAND" → "SE". */
export function codeOf(value: string): string | null {
  const v = value.trim();
  if (v === '') return null;
  const dash = v.indexOf('-');
  return dash === -1 ? v : v.slice(0, dash) || null;
}

interface BolagsverketName {
  name: string;
  /** "FORETAGSNAMN", "NAMN", "FORNAMN_FRSPRAK", "SARS_FORNAMN", … (suffix "-ORGNAM" removed). */
  type: string | null;
  registrationDate: string | null;
}

/** `Exempel AB$FORETAGSNAMN-ORGNAM$2001-05-10|Example Ltd$FORNAMN_FRSPRAK-ORGNAM$…` */
export function parseNames(value: string): BolagsverketName[] {
  const out: BolagsverketName[] = [];
  for (const entry of value.split('|')) {
    const [name = '', type = '', date = ''] = splitComposite(entry);
    if (name !== '') out.push({ name, type: codeOf(type), registrationDate: date || null });
  }
  return out;
}

/** The registered company name (first FORETAGSNAMN), else the first name of any type. */
export function primaryName(names: BolagsverketName[]): string | null {
  return (names.find((n) => n.type === 'FORETAGSNAMN') ?? names[0])?.name ?? null;
}

interface BolagsverketIdentity {
  number: string;
  /** "ORGNR", "PERSON", "SAMORDNR", "GDNR", … (suffix "-IDORG" removed). */
  type: string | null;
}

export function parseIdentity(value: string): BolagsverketIdentity {
  const [number = '', type = ''] = splitComposite(value);
  return { number: number.replace(/[\s-]/g, ''), type: codeOf(type) };
}

interface BolagsverketPostalAddress {
  street: string | null;
  careOf: string | null;
  city: string | null;
  postalCode: string | null;
  countryCode: string | null;
}

const nz = (s: string | undefined) => (s === undefined || s === '' ? null : s);
const POSTCODE = /^\d{3} ?\d{2}$/;

/**
 * `street$c/o$city$postcode$country`. The order of city and postcode is [unverified], so when
 * the city slot holds a postcode and the postcode slot does not, they are swapped.
 */
export function parsePostalAddress(value: string): BolagsverketPostalAddress | null {
  if (value.trim() === '') return null;
  // Line breaks inside the street (real ones, or a literal "\n" left by an export) become ", ".
  const parts = splitComposite(value).map((p) => p.replace(/\s*(?:\\n|\r?\n)\s*/g, ', ').trim());
  const [street, careOf] = [nz(parts[0]), nz(parts[1])];
  let [city, postalCode] = [nz(parts[2]), nz(parts[3])];
  if (city && POSTCODE.test(city) && !(postalCode && POSTCODE.test(postalCode)))
    [city, postalCode] = [postalCode, city];
  const country = nz(parts[4]);
  return {
    street,
    careOf,
    city,
    postalCode: postalCode ? postalCode.replace(' ', '') : null,
    countryCode: country ? codeOf(country) : null,
  };
}

interface PendingProcedure {
  /** "KK" bankruptcy, "LI" liquidation, "FR" reconstruction, "FUOL" merging away, … */
  code: string;
  date: string | null;
}

/** `KK-AVOMFO$2020-01-01|LI-AVOMFO$…` (a text part may sit between code and date). */
export function parsePendingProcedures(value: string): PendingProcedure[] {
  const out: PendingProcedure[] = [];
  for (const entry of value.split('|')) {
    const parts = splitComposite(entry);
    const code = codeOf(parts[0] ?? '');
    if (!code) continue;
    const date = parts.slice(1).find((p) => /^\d{4}-\d{2}-\d{2}$/.test(p)) ?? null;
    out.push({ code, date });
  }
  return out;
}
