// Sign-in: the key is pasted once, checked against GET /api/keys/usage (which counts no quota),
// and kept in this tab's session only. It is never put in the address or a cookie.
import { useState } from 'preact/hooks';
import { NcdApiError, NcdClient } from '../../../clients/js/src/index.ts';
import { storeKey } from '../session.ts';

export function SignIn(props: { onSignedIn: () => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const value = key.trim();
    if (!value) return setError('Paste your API key.');
    setBusy(true);
    setError(null);
    try {
      await new NcdClient({ baseUrl: location.origin, apiKey: value, maxRetries: 0 }).keys.usage();
      storeKey(value);
      setKey('');
      props.onSignedIn();
    } catch (err) {
      setError(
        err instanceof NcdApiError && err.status === 401
          ? 'This key is not valid (it may have been rotated).'
          : err instanceof Error
            ? err.message
            : String(err),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="sign-in">
      <h1>Sign in to the console</h1>
      <p>
        The console uses the public API with your own key and its limits. The key stays in this browser tab (session
        storage) and is sent only in the Authorization header. No key yet? Register one with{' '}
        <code>POST /api/keys/register</code> (see <a href="/docs">the API reference</a>).
      </p>
      <form onSubmit={submit} method="post" action="#" autocomplete="off">
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          value={key}
          onInput={(e) => setKey((e.target as HTMLInputElement).value)}
          aria-describedby={error ? 'sign-in-error' : undefined}
          spellcheck={false}
          required
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        {error && (
          <p id="sign-in-error" class="error" role="alert">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
