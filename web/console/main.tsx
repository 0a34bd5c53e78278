// The web console: one page application over the public API. The server serves the same shell
// for every /console address; this script signs the user in (a key kept in the tab's session)
// and renders the page the address names.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import './console.css';
import { Company } from './pages/company.tsx';
import { Destinations } from './pages/destinations.tsx';
import { Search } from './pages/search.tsx';
import { SignIn } from './pages/sign-in.tsx';
import { Usage } from './pages/usage.tsx';
import { Watchlists } from './pages/watchlists.tsx';
import { navigate, onLinkClick, useRoute, type Route } from './router.ts';
import { forgetKey, storedKey } from './session.ts';

const NAV = [
  { href: '/console', label: 'Companies', page: 'search' },
  { href: '/console/usage', label: 'Usage and key', page: 'usage' },
  { href: '/console/destinations', label: 'Destinations', page: 'destinations' },
  { href: '/console/watchlists', label: 'Watchlists', page: 'watchlists' },
] as const;

function Page(props: { route: Route }) {
  const r = props.route;
  switch (r.page) {
    case 'search':
      return <Search query={r.query} />;
    case 'company':
      return <Company orgNumber={r.orgNumber} country={r.country} key={`${r.country}:${r.orgNumber}`} />;
    case 'usage':
      return <Usage />;
    case 'destinations':
      return <Destinations />;
    case 'watchlists':
      return <Watchlists />;
    default:
      return (
        <main id="main">
          <h1>Page not found</h1>
          <p>
            <a href="/console">Search companies</a>
          </p>
        </main>
      );
  }
}

function App() {
  const route = useRoute();
  const [signedIn, setSignedIn] = useState(() => storedKey() !== null);
  useEffect(() => {
    const out = () => setSignedIn(false);
    window.addEventListener('ncd:signed-out', out);
    return () => window.removeEventListener('ncd:signed-out', out);
  }, []);
  // Focus moves to the new page's heading, so a screen reader hears the page change.
  useEffect(() => {
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [route]);
  const signOut = () => {
    forgetKey();
    setSignedIn(false);
    navigate('/console');
  };
  return (
    <div onClick={(e) => onLinkClick(e as unknown as MouseEvent)}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/console">
          Nordic Company Data
        </a>
        {signedIn && (
          <nav aria-label="Console">
            <ul>
              {NAV.map((n) => (
                <li key={n.href}>
                  <a href={n.href} aria-current={route.page === n.page ? 'page' : undefined}>
                    {n.label}
                  </a>
                </li>
              ))}
              <li>
                <button type="button" onClick={signOut}>
                  Sign out
                </button>
              </li>
            </ul>
          </nav>
        )}
      </header>
      {signedIn ? <Page route={route} /> : <SignIn onSignedIn={() => setSignedIn(true)} />}
      <footer class="foot">
        <a href="/docs">API reference</a> · <a href="/errors">Errors</a>
      </footer>
    </div>
  );
}

render(<App />, document.getElementById('app')!);
