// One API read for a component: loading, the data, or the error as a sentence for the user.
import { useEffect, useState } from 'preact/hooks';
import { describeError } from '../api.ts';

export type Load<T> = { state: 'loading' } | { state: 'done'; data: T } | { state: 'failed'; error: string };

export function useLoad<T>(read: () => Promise<T>, deps: unknown[]): [Load<T>, () => void] {
  const [load, setLoad] = useState<Load<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setLoad({ state: 'loading' });
    read().then(
      (data) => live && setLoad({ state: 'done', data }),
      (err) => live && setLoad({ state: 'failed', error: describeError(err) }),
    );
    return () => {
      live = false;
    };
    // The caller names what the read depends on.
  }, [...deps, round]);
  return [load, () => setRound((r) => r + 1)];
}
