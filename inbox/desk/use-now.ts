// The clock the cards read, ticking every 5 s: waits and due times move on their own, without a request.
import { useEffect, useState } from 'react';

export function useNow(everyMs = 5_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
