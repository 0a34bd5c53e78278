// Time is a port: logic that depends on "now" takes a Clock, so tests can move it.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
