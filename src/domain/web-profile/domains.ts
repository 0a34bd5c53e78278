// Host and registrable-domain helpers over the Public Suffix List (tldts), so "firma.priv.no"
// and "firma.wixsite.com" count as their own sites rather than as "priv.no"/"wixsite.com".
import { parse } from 'tldts';

const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The registrable domain of a hostname (PSL incl. private suffixes), or null. */
export function registrableDomain(hostname: string): string | null {
  const p = parse(hostname, { allowPrivateDomains: true });
  if (p.isIp || !p.domain || (!p.isIcann && !p.isPrivate)) return null;
  return p.domain;
}

/**
 * The hostname in a registry "website" field, which usually has no scheme ("www.brreg.no")
 * and sometimes a path or stray spaces. Null when it is not a usable public hostname.
 */
export function hostFromWebsite(raw: string): string | null {
  const t = raw.trim().toLowerCase().replace(/\s+/g, '');
  if (!t) return null;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//.test(t) ? t : `http://${t}`);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const host = url.hostname.replace(/\.$/, '');
  if (!host.split('.').every((l) => HOST_LABEL.test(l))) return null;
  return registrableDomain(host) ? host : null;
}

/** Whether `label` can stand as one DNS label (used for name-derived guesses). */
export function isHostLabel(label: string): boolean {
  return HOST_LABEL.test(label);
}
