// A value and the link to where it came from.
import type { ComponentChildren } from 'preact';
import { sourceUrl } from '../sources.ts';

export function SourceLink(props: { source?: string; orgNumber: string; children: ComponentChildren }) {
  const url = sourceUrl(props.source, props.orgNumber);
  if (!url) return <>{props.children}</>;
  return (
    <a href={url} rel="noopener noreferrer" target="_blank" title={`Source: ${props.source}`} class="sourced">
      {props.children}
    </a>
  );
}
