// Rate-limit counters in this process's memory: the SQLite store's (one instance per site), and the default of the
// form and sign-in limits when they are given no store's counters. The contract: contract/rate-counters.ts.
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { RateCounters } from '../contract/rate-counters.ts';

export const memoryCounters: RateCounters = ({ name, points, duration }) =>
  new RateLimiterMemory({ keyPrefix: name, points, duration });
