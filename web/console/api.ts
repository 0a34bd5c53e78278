// The console's only way to data: the public typed client (clients/js), with the user's key and
// the user's limits. Nothing here bypasses the API or keeps state beyond the session's key.
import { NcdApiError, NcdClient } from '../../clients/js/src/index.ts';
import { forgetKey, storedKey } from './session.ts';

let client: NcdClient | undefined;
let clientKey: string | null = null;

/** A client for the stored key; undefined when signed out. */
export function api(): NcdClient | undefined {
  const key = storedKey();
  if (!key) return undefined;
  if (!client || clientKey !== key) {
    // One retry at most: a person is waiting, and a 429's wait is better shown than hidden.
    client = new NcdClient({ baseUrl: location.origin, apiKey: key, maxRetries: 1, maxRetryDelayMs: 5_000 });
    clientKey = key;
  }
  return client;
}

/** What to tell the user about a failed call; a refused key signs the user out. */
export function describeError(err: unknown): string {
  if (err instanceof NcdApiError) {
    if (err.status === 401) {
      forgetKey();
      window.dispatchEvent(new Event('ncd:signed-out'));
    }
    const details = err.details.map((d) => `${d.path}: ${d.message}`).join('; ');
    return `${err.message}${details ? ` (${details})` : ''} [${err.code}]`;
  }
  return err instanceof Error ? err.message : String(err);
}

export { NcdApiError };
