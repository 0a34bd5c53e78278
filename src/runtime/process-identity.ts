// This process as lease holders (jobs, watchlist deliveries) and sync_runs name it: host, pid (so
// an operator can find it) and a random suffix (so a reused pid is not taken for the old holder).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

export const HOLDER = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
