// autocannon ships no types; the benchmarks use only its promise and the 'response' event.
declare module 'autocannon' {
  const autocannon: (
    opts: Record<string, unknown>,
  ) => Promise<Record<string, any>> & { on(event: string, fn: (...args: any[]) => void): void };
  export default autocannon;
}
