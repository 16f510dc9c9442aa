// Whether what the screen shows is current: live (signed in, the event stream up), reconnecting (the stream down for
// more than STALE_AFTER_MS), or signed out under the open screen (session.ts). Screens that are not current say as of
// when (the last time the inbox heard from the server), and stop ticking ages as if they knew the lead's state now.
import { useEffect, useState } from 'react';
import { useLapse } from '../session.ts';
import { onHealth, type StreamHealth } from './desk-stream.ts';

export interface Currency {
  state: 'live' | 'reconnecting' | 'signed-out';
  /** The last time the inbox heard from the server (epoch ms). */
  asOf: number;
}

export function useCurrency(): Currency {
  const lapse = useLapse();
  const [health, setHealth] = useState<StreamHealth>();
  useEffect(() => onHealth(setHealth), []);
  const asOf = health?.lastUpdate ?? Date.now();
  if (lapse) return { state: 'signed-out', asOf: Math.min(asOf, lapse.at) };
  return { state: health?.state === 'reconnecting' ? 'reconnecting' : 'live', asOf };
}

const clock = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });
/** "5:32 AM": when a screen that is not current was last current. */
export const clockTime = (ms: number): string => clock.format(new Date(ms));
