// Client-side routing over the console's five addresses, with history.pushState so the back
// button works and every page has a URL to share (a URL that never holds the key).
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { page: 'search'; query: URLSearchParams }
  | { page: 'company'; orgNumber: string; country: string }
  | { page: 'usage' }
  | { page: 'destinations' }
  | { page: 'watchlists' }
  | { page: 'not-found' };

export function parseRoute(pathname: string, search: string): Route {
  const query = new URLSearchParams(search);
  if (pathname === '/console' || pathname === '/console/') return { page: 'search', query };
  const company = /^\/console\/companies\/([0-9A-Za-z-]{1,20})$/.exec(pathname);
  if (company) return { page: 'company', orgNumber: company[1], country: (query.get('country') ?? 'NO').toUpperCase() };
  if (pathname === '/console/usage') return { page: 'usage' };
  if (pathname === '/console/destinations') return { page: 'destinations' };
  if (pathname === '/console/watchlists') return { page: 'watchlists' };
  return { page: 'not-found' };
}

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new Event('ncd:navigate'));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.pathname, location.search));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.pathname, location.search));
    window.addEventListener('popstate', update);
    window.addEventListener('ncd:navigate', update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener('ncd:navigate', update);
    };
  }, []);
  return route;
}

/** A same-origin link that routes in the page (a plain click), or opens normally (modifiers). */
export function onLinkClick(e: MouseEvent): void {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = (e.target as Element | null)?.closest('a');
  if (!a || a.origin !== location.origin || !a.pathname.startsWith('/console') || a.target) return;
  e.preventDefault();
  navigate(a.pathname + a.search);
}
