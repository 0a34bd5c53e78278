// The value of an Inline XBRL `ix:nonFraction`, as the Inline XBRL 1.1 specification and the
// XBRL International Transformation Registries define it: the displayed text is read by its
// `format` (a transformation: which character is the decimal separator, which group the digits),
// multiplied by 10^`scale` (scale="3": the figure is shown in thousands), and negated when
// `sign="-"` (the displayed text itself is never signed). An empty or dash-only value under the
// zero transformations is 0. Anything that does not fit throws IxNumberError.

export class IxNumberError extends Error {}

// Separators a displayed number may group its digits with: space, no-break and narrow no-break spaces.
const SPACES = /[\s\u00a0\u202f\u2009]/g;

/** Transformations by their local name (the prefix binds a registry version; TR1–TR5 share these meanings). */
const FORMATS: Record<string, (s: string) => string | 0> = {
  // TR1/TR2 names
  numdotdecimal: (s) => s.replace(/[,'\s]/g, ''),
  numcommadecimal: (s) => s.replace(/[.'\s]/g, '').replace(',', '.'),
  numspacedot: (s) => s.replace(/\s/g, ''),
  numspacecomma: (s) => s.replace(/\s/g, '').replace(',', '.'),
  numcomma: (s) => s.replace(',', '.'),
  numdotcomma: (s) => s.replace(/\./g, '').replace(',', '.'),
  numcommadot: (s) => s.replace(/,/g, ''),
  zerodash: () => 0,
  // TR3/TR4/TR5 names
  'num-dot-decimal': (s) => s.replace(/[,'\s]/g, ''),
  'num-comma-decimal': (s) => s.replace(/[.'\s]/g, '').replace(',', '.'),
  'num-unit-decimal': (s) => s.replace(/[^\d]+/, '.').replace(/[^\d.]/g, ''),
  'fixed-zero': () => 0,
  numdash: () => 0,
};

const DECIMAL = /^(\d+(\.\d*)?|\.\d+)$/;

export interface IxNumberAttributes {
  format?: string | null;
  scale?: string | null;
  sign?: string | null;
}

/** The fact's value in units (e.g. SEK). */
export function ixNumber(displayed: string, attrs: IxNumberAttributes): number {
  const format = attrs.format ? attrs.format.slice(attrs.format.indexOf(':') + 1) : null;
  const text = displayed.replace(SPACES, ' ').trim();
  let lexical: string;
  if (format === null) lexical = text.replace(/ /g, '');
  else {
    const transform = FORMATS[format];
    if (!transform) throw new IxNumberError(`unknown format ${attrs.format}`);
    const t = transform(text);
    if (t === 0) return 0;
    lexical = t;
  }
  if (!DECIMAL.test(lexical))
    throw new IxNumberError(`"${text.slice(0, 20)}" is not a number in format ${attrs.format ?? 'none'}`);
  let scale = 0;
  if (attrs.scale !== undefined && attrs.scale !== null && attrs.scale !== '') {
    if (!/^-?\d{1,2}$/.test(attrs.scale.trim())) throw new IxNumberError(`scale "${attrs.scale}" is not an integer`);
    scale = Number(attrs.scale.trim());
  }
  // Scale by moving the decimal point in the text, not by floating-point multiplication.
  const value = Number(shift(lexical, scale));
  if (!Number.isFinite(value)) throw new IxNumberError(`"${text.slice(0, 20)}" is out of range`);
  if (attrs.sign !== undefined && attrs.sign !== null && attrs.sign !== '' && attrs.sign !== '-')
    throw new IxNumberError(`sign "${attrs.sign}" is not "-"`);
  return attrs.sign === '-' ? -value : value;
}

/** `lexical` × 10^scale, written out as a decimal string. */
function shift(lexical: string, scale: number): string {
  const [int, frac = ''] = lexical.split('.');
  const digits = (int || '0') + frac;
  const point = (int || '0').length + scale;
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}
