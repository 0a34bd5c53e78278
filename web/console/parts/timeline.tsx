// A company's events, newest first, as an ordered list on a vertical line: what changed, from
// what to what, when, and from which source.
import { formatDateTime } from '../format.ts';

export interface TimelineEvent {
  seq: number;
  category: string;
  occurredAt: string;
  source: string;
  changes: string[];
}

export function Timeline(props: { events: TimelineEvent[] }) {
  return (
    <ol class="timeline" aria-label="Changes, newest first">
      {props.events.map((e) => (
        <li key={e.seq} class={`event ${e.category}`}>
          <time dateTime={e.occurredAt}>{formatDateTime(e.occurredAt)}</time>
          <strong class="category">{e.category}</strong>
          <ul>
            {e.changes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <span class="source">{e.source}</span>
        </li>
      ))}
    </ol>
  );
}
