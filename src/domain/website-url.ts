// The registry's homepage as a URL. Registries hold it without a scheme ("www.brreg.no"); the
// record serves it with one, https, which is what a client opens. The same rule is written in
// SQL for list pages (store/record-json.ts), so a row and the lookup agree to the byte.

/** null for none or blanks; an http(s) URL as it is; otherwise "https://" before the value. */
export function websiteUrl(stored: string | null): string | null {
  if (stored === null || /^ *$/.test(stored)) return null;
  return /^https?:\/\//i.test(stored) ? stored : `https://${stored}`;
}

/** The SQL twin of websiteUrl over a column expression. */
export const websiteUrlSql = (column: string) =>
  `CASE WHEN ${column} ~ '^ *$' THEN NULL WHEN ${column} ~* '^https?://' THEN ${column} ELSE 'https://' || ${column} END`;
