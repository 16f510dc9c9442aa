// The desk's watch, on every screen while signed in (also a lead's page): it keeps the open leads needing a call
// (the "needs action" queue's first page, asked on its own: a background request) and tells of each new one, and of
// each passing its promise, with a tone, a notification and the tab title's count. It asks every 10 s whether the
// session still lives (never moving its end), so a session ended elsewhere signs the app out within 10 s (api.ts);
// and it shows the banner when the stream is down (StaleBanner.tsx).
import { useEffect, useRef } from 'react';
import type { ListedLead } from '../../contracts/staff-api.ts';
import { api } from '../api.ts';
import { chime, needingCall, notify, setTitleCount } from './attention.ts';
import { noteUpdate, subscribe } from './desk-stream.ts';
import { StaleBanner } from './StaleBanner.tsx';

const TICK_MS = 5_000;
const SESSION_CHECK_MS = 10_000;

export function DeskWatch() {
  const known = useRef<Map<string, ListedLead> | undefined>(undefined);
  const overdue = useRef(new Set<string>());

  useEffect(() => {
    let stopped = false;
    const refresh = async (announce: boolean) => {
      let page;
      try {
        page = await api.leads({ view: 'needs-action' }, undefined, { background: true });
      } catch {
        return; // A 401 signs the app out (api.ts); anything else: the next event or tick asks again.
      }
      if (stopped) return;
      noteUpdate();
      const before = known.current;
      known.current = new Map(page.leads.map((lead) => [lead.id, lead]));
      if (announce && before)
        for (const lead of page.leads)
          if (!before.has(lead.id) && lead.status === 'new') {
            chime();
            notify('New request', lead);
          }
      tick(false);
    };
    const tick = (announce = true) => {
      const now = Date.now();
      const leads = [...(known.current?.values() ?? [])];
      for (const lead of leads) {
        const late = lead.due && Date.parse(lead.dueAt) <= now && lead.owner === null;
        if (late && !overdue.current.has(lead.id)) {
          overdue.current.add(lead.id);
          if (announce) {
            chime();
            notify('Past its promise', lead);
          }
        }
      }
      setTitleCount(needingCall(leads, now));
    };
    void refresh(false);
    const unsubscribe = subscribe({ onLead: () => void refresh(true), onChange: () => void refresh(false) });
    const ticking = setInterval(tick, TICK_MS);
    const checking = setInterval(() => void api.session(true).catch(() => undefined), SESSION_CHECK_MS);
    return () => {
      stopped = true;
      unsubscribe();
      clearInterval(ticking);
      clearInterval(checking);
      setTitleCount(0);
    };
  }, []);

  return <StaleBanner />;
}
