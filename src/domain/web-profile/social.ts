// Stage 6: the company's social-media handles from its homepage's outbound links (and the
// JSON-LD `sameAs` list). Handles, not URLs. Share buttons, tracking pixels and personal
// profiles are not the company's account and are skipped.
import { scanHtml, type PageScan } from './html-scan.ts';

export interface SocialHandles {
  linkedin: string | null;
  facebook: string | null;
  instagram: string | null;
  twitter: string | null;
}

type Network = keyof SocialHandles;

const FACEBOOK_RESERVED = new Set([
  'sharer.php',
  'sharer',
  'share',
  'share.php',
  'dialog',
  'plugins',
  'tr',
  'login',
  'login.php',
  'groups',
  'events',
  'watch',
  'photo.php',
  'photo',
  'photos',
  'permalink.php',
  'story.php',
  'hashtag',
  'help',
  'policies',
  'policy.php',
  'privacy',
  'home.php',
  'business',
  'ads',
  'legal',
  'l.php',
  'people',
  'profile.php',
  'media',
  'marketplace',
  'gaming',
  'reel',
  'settings',
  'v2.0',
  'v3.0',
  'terms',
  'fundraisers',
  'search',
  'notes',
  'stories',
]);
const INSTAGRAM_RESERVED = new Set([
  'p',
  'reel',
  'reels',
  'explore',
  'stories',
  'accounts',
  'tv',
  'direct',
  'about',
  'legal',
  'developer',
  'embed.js',
  'web',
]);
const TWITTER_RESERVED = new Set([
  'intent',
  'share',
  'home',
  'search',
  'hashtag',
  'i',
  'privacy',
  'tos',
  'login',
  'signup',
  'explore',
  'settings',
  'messages',
  'notifications',
  'widgets.js',
  'widgets',
  'compose',
  'oauth',
  'account',
  'en',
  'about',
]);

function classify(url: URL): { network: Network; handle: string } | null {
  const host = url.hostname.toLowerCase().replace(/^(?:www|m|mobile|web|[a-z]{2}(?:-[a-z]{2})?)\./, '');
  const seg = url.pathname
    .split('/')
    .filter(Boolean)
    .map((s) => safeDecode(s));
  switch (host) {
    case 'linkedin.com': {
      // Company pages only: /company/<slug>; /in/<person> is a person, not the company.
      if (seg[0] !== 'company' || !seg[1]) return null;
      return /^[\p{L}\p{N}][\p{L}\p{N}._&-]{0,99}$/u.test(seg[1]) ? { network: 'linkedin', handle: seg[1] } : null;
    }
    case 'facebook.com':
    case 'fb.com': {
      if (!seg[0]) return null;
      // Old page URLs: /pages/<Name>/<numeric id>; the id is what identifies the page.
      if (seg[0].toLowerCase() === 'pages')
        return seg[2] && /^\d+$/.test(seg[2]) ? { network: 'facebook', handle: seg[2] } : null;
      if (FACEBOOK_RESERVED.has(seg[0].toLowerCase())) return null;
      return /^[A-Za-z0-9.-]{3,80}$/.test(seg[0]) ? { network: 'facebook', handle: seg[0] } : null;
    }
    case 'instagram.com': {
      if (!seg[0] || INSTAGRAM_RESERVED.has(seg[0].toLowerCase())) return null;
      return /^[A-Za-z0-9._]{1,30}$/.test(seg[0]) ? { network: 'instagram', handle: seg[0] } : null;
    }
    case 'twitter.com':
    case 'x.com': {
      if (!seg[0] || TWITTER_RESERVED.has(seg[0].toLowerCase())) return null;
      return /^[A-Za-z0-9_]{1,15}$/.test(seg[0]) ? { network: 'twitter', handle: seg[0] } : null;
    }
    default:
      return null;
  }
}

export function extractSocialHandles(html: string, baseUrl: string, scan: PageScan = scanHtml(html)): SocialHandles {
  const urls = [...scan.links, ...scan.jsonLd.flatMap((j) => j.match(/https?:\/\/[^\s"'<>\\]+/g) ?? [])];
  // Per network: handle (lower-case key) -> [first spelling, count, first position].
  const seen: Record<Network, Map<string, { handle: string; count: number; first: number }>> = {
    linkedin: new Map(),
    facebook: new Map(),
    instagram: new Map(),
    twitter: new Map(),
  };
  urls.forEach((raw, position) => {
    let url: URL;
    try {
      url = new URL(raw, baseUrl);
    } catch {
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
    const hit = classify(url);
    if (!hit) return;
    const key = hit.handle.toLowerCase();
    const entry = seen[hit.network].get(key);
    if (entry) entry.count++;
    else seen[hit.network].set(key, { handle: hit.handle, count: 1, first: position });
  });
  // The most-linked handle wins (footer and header links repeat the company's own); ties go
  // to the one linked first.
  const pick = (n: Network): string | null => {
    const best = [...seen[n].values()].sort((a, b) => b.count - a.count || a.first - b.first)[0];
    return best ? best.handle : null;
  };
  return {
    linkedin: pick('linkedin'),
    facebook: pick('facebook'),
    instagram: pick('instagram'),
    twitter: pick('twitter'),
  };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
