// Nordic formatting: Norwegian Bokmål number and date conventions (space as the thousands
// separator, comma as the decimal mark, day.month.year), with each amount in its own currency.
const LOCALE = 'nb-NO';
const integer = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });
const date = new Intl.DateTimeFormat(LOCALE, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });
const dateTime = new Intl.DateTimeFormat(LOCALE, {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
});

export const COUNTRY_CURRENCY: Record<string, string> = { NO: 'NOK', SE: 'SEK', FI: 'EUR', DK: 'DKK' };

export function formatInteger(n: number | null | undefined): string {
  return n === null || n === undefined ? '–' : integer.format(n);
}

export function formatDecimal(n: number | null | undefined): string {
  return n === null || n === undefined ? '–' : decimal.format(n);
}

export function formatPct(n: number | null | undefined): string {
  return n === null || n === undefined ? '–' : `${decimal.format(n)} %`;
}

/** An amount with its currency code after it, as Nordic reports write it: "72 543 000 NOK". */
export function formatMoney(n: number | null | undefined, currency: string | null | undefined): string {
  if (n === null || n === undefined) return '–';
  return `${integer.format(n)} ${currency ?? ''}`.trim();
}

/** Millions for chart axes: "72 543". */
export function formatMillions(n: number): string {
  return integer.format(Math.round(n / 1e6));
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '–';
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : date.format(t);
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '–';
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : `${dateTime.format(t)} UTC`;
}
