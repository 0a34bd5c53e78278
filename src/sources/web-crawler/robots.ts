// robots.txt, fetched once per origin per run and read with robots-parser. Answers follow
// RFC 9309: 2xx = the rules, 4xx = no rules (all allowed), 5xx = everything disallowed; a
// fetch that fails leaves the origin unusable for this run (the page fetch would fail too).
import robotsModule from 'robots-parser';
import type { ProbeError } from './types.ts';

// The package's types declare an ES default export; at run time module.exports is the function.
const robotsParser = robotsModule as unknown as typeof robotsModule.default;

export type RobotsState =
  | { kind: 'rules'; allows(url: string): boolean; crawlDelaySeconds: number | undefined }
  | { kind: 'allow-all' }
  | { kind: 'disallow-all' }
  | { kind: 'unreachable'; error: ProbeError; code: string | null };

interface RobotsAnswer {
  status: number;
  body: string;
}

/** Builds the state for one origin from what fetching /robots.txt gave. */
export function robotsState(origin: string, answer: RobotsAnswer, agent: string): RobotsState {
  if (answer.status >= 500) return { kind: 'disallow-all' };
  if (answer.status < 200 || answer.status >= 300) return { kind: 'allow-all' };
  const robots = robotsParser(`${origin}/robots.txt`, answer.body);
  return {
    kind: 'rules',
    // undefined = the URL is not under this origin; the crawler never asks that.
    allows: (url) => robots.isAllowed(url, agent) !== false,
    crawlDelaySeconds: robots.getCrawlDelay(agent),
  };
}

export function allowsUrl(state: RobotsState, url: string): boolean {
  if (state.kind === 'rules') return state.allows(url);
  return state.kind === 'allow-all';
}
