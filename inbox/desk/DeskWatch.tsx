// The desk's watch, on every screen while signed in (also a lead's page): it keeps the open leads needing a call
// (the "needs action" queue's first page, asked on its own: a background request) and tells of each new one, and of
// each passing its promise, with a tone, a notification and the tab title's count. It asks every 5 s whether the
// session still lives (never moving its end), so a session ended elsewhere shows as signed out within seconds (api.ts,
// session.ts); and it shows the banner when signed out or the stream is down (StaleBanner.tsx). Signed out, it stops:
// nothing it could count would be current.
import { useEffect, useRef } from 'react';
import type { ListedLead } from '../../contracts/staff-api.ts';
import { api } from '../api.ts';
import { chime, needingCall, notify, setTitleCount } from './attention.ts';
import { noteUpdate, onHealth, subscribe } from './desk-stream.ts';
import { useLapse } from '../session.ts';
import { StaleBanner } from './StaleBanner.tsx';

const TICK_MS = 5_000;
const SESSION_CHECK_MS = 5_000;

export function DeskWatch() {
  const known = useRef<Map<string, ListedLead> | undefined>(undefined);
  const overdue = useRef(new Set<string>());
  const lapsed = useLapse() !== undefined;

  useEffect(() => {
    if (lapsed) return;
    let stopped = false;
    let live = true;
    const stopHealth = onHealth((health) => {
      live = health.state === 'live';
    });
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
    // A session that answers while the stream is up: the screen is current as of now (the banner's "last update").
    const checking = setInterval(
      () =>
        void api.session(true).then(
          () => live && noteUpdate(),
          () => undefined,
        ),
      SESSION_CHECK_MS,
    );
    return () => {
      stopped = true;
      stopHealth();
      unsubscribe();
      clearInterval(ticking);
      clearInterval(checking);
      setTitleCount(0);
    };
  }, [lapsed]);

  return <StaleBanner />;
}
