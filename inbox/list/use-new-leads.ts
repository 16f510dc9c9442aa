// New and changed leads without a reload, from the app's one event stream (desk/desk-stream.ts): the list asks for its
// first page again on its own after either. Neither the stream nor that request is the member's activity: an
// unattended inbox still signs out at the idle limit (auth/IdleWatch.tsx).
import { useEffect, useRef } from 'react';
import { subscribe } from '../desk/desk-stream.ts';

export function useNewLeads(onLead: (id: string) => void, onChange?: (id: string) => void) {
  const latest = useRef({ onLead, onChange });
  useEffect(() => {
    latest.current = { onLead, onChange };
  });
  useEffect(
    () =>
      subscribe({
        onLead: (id) => latest.current.onLead(id),
        onChange: (id) => latest.current.onChange?.(id),
      }),
    [],
  );
}
