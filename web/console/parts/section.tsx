// A titled part of a page, and the three states of a read inside it.
import type { ComponentChildren } from 'preact';
import type { Load } from './use-load.ts';

export function Section(props: { id: string; title: string; children: ComponentChildren; source?: string }) {
  return (
    <section class="panel" aria-labelledby={`${props.id}-title`} id={props.id}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      {props.source && <p class="source">Source: {props.source}</p>}
      {props.children}
    </section>
  );
}

/** Renders `done` with the data; a message while loading or when the read failed. */
export function Loaded<T>(props: { load: Load<T>; children: (data: T) => ComponentChildren }) {
  const { load } = props;
  if (load.state === 'loading')
    return (
      <p class="muted" aria-busy="true">
        Loading…
      </p>
    );
  if (load.state === 'failed')
    return (
      <p class="error" role="alert">
        {load.error}
      </p>
    );
  return <>{props.children(load.data)}</>;
}

/** A list's empty state says why, in the words the API gave. */
export function Empty(props: { children: ComponentChildren }) {
  return <p class="muted empty">{props.children}</p>;
}
