// One API read for a component: loading, the data, or the error as a sentence for the user.
// A reload (after the user changed something) keeps showing the data it has until the new answer
// arrives, so forms and messages inside it are not torn down and rebuilt.
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from '../api.ts';

export type Load<T> = { state: 'loading' } | { state: 'done'; data: T } | { state: 'failed'; error: string };

export function useLoad<T>(read: () => Promise<T>, deps: unknown[]): [Load<T>, () => void] {
  const [load, setLoad] = useState<Load<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  const lastDeps = useRef<string | null>(null);
  const depsKey = JSON.stringify(deps);
  useEffect(() => {
    let live = true;
    // New inputs show "loading"; the same inputs read again (a reload) keep the current data.
    if (lastDeps.current !== depsKey) setLoad({ state: 'loading' });
    lastDeps.current = depsKey;
    read().then(
      (data) => live && setLoad({ state: 'done', data }),
      (err) => live && setLoad({ state: 'failed', error: describeError(err) }),
    );
    return () => {
      live = false;
    };
    // The caller names what the read depends on.
  }, [depsKey, round]);
  return [load, () => setRound((r) => r + 1)];
}
