// New leads without a reload: the server's event stream says a lead was stored (its id only), and the list then asks
// for its first page again, on its own (LeadList.tsx). Neither the stream nor that request is the member's activity: an
// unattended inbox still signs out at the idle limit (auth/IdleWatch.tsx). EventSource reconnects by itself after a
// dropped connection; when the server refused the stream (a closed source: signed out, or the server restarting), this
// opens a new one a little later, which also finds out through the next API call whether the session has ended.
import { useEffect, useRef } from 'react';
import { STAFF_API_PATH, type LeadStoredEvent } from '../../contracts/staff-api.ts';

const REOPEN_MS = [1_000, 5_000, 15_000, 30_000];

export function useNewLeads(onLead: (id: string) => void) {
  const latest = useRef(onLead);
  useEffect(() => {
    latest.current = onLead;
  });
  useEffect(() => {
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const open = () => {
      source = new EventSource(`${STAFF_API_PATH}/events`, { withCredentials: true });
      source.addEventListener('open', () => (failures = 0));
      source.addEventListener('lead', (event) => {
        try {
          const { id } = JSON.parse((event as MessageEvent<string>).data) as Partial<
            Record<keyof LeadStoredEvent, unknown>
          >;
          if (typeof id === 'string') latest.current(id);
        } catch {
          // Not the contract's data: nothing to show.
        }
      });
      source.addEventListener('error', () => {
        if (source?.readyState !== EventSource.CLOSED) return;
        timer = setTimeout(open, REOPEN_MS[Math.min(failures, REOPEN_MS.length - 1)]);
        failures += 1;
      });
    };
    open();
    return () => {
      clearTimeout(timer);
      source?.close();
    };
  }, []);
}
