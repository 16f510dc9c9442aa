// "I'm calling": one owner per lead, visible to all. The owner sees "Release"; everyone else sees who is calling. A
// claim someone else won meanwhile (409) says who, and the lists update from the event stream. Signed out, both wait.
import { Button, Text } from '@mantine/core';
import { useState } from 'react';
import type { LeadDesk, LeadDetail } from '../../contracts/staff-api.ts';
import { api, ApiError } from '../api.ts';
import { useLapse, useSession } from '../session.ts';

export function ClaimButton({
  lead,
  onChanged,
  compact = false,
}: {
  lead: Pick<LeadDesk, 'owner' | 'due'> & { id: string };
  onChanged: (lead: LeadDetail) => void;
  compact?: boolean;
}) {
  const { me } = useSession();
  // Signed out under the open screen (the banner says so): a claim would only meet a 401.
  const lapsed = useLapse() !== undefined;
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const mine = me !== null && lead.owner === me.email;
  const act = async (claim: boolean) => {
    setBusy(true);
    setProblem(undefined);
    try {
      onChanged(await (claim ? api.claim(lead.id) : api.release(lead.id)));
    } catch (error) {
      setProblem(error instanceof ApiError ? (error.serverMessage ?? error.message) : String(error));
    } finally {
      setBusy(false);
    }
  };
  const size = compact ? 'compact-sm' : 'sm';
  return (
    <>
      {lead.owner !== null && !mine && (
        // The name before the @ keeps a phone's card narrow; the whole address is in the title.
        <Text size="sm" component="span" className="inbox-owner" title={lead.owner}>
          {lead.owner.split('@')[0]} is calling
        </Text>
      )}
      {mine && (
        <Button
          size={size}
          variant="default"
          loading={busy}
          disabled={lapsed}
          onClick={() => void act(false)}
        >
          Release
        </Button>
      )}
      {lead.owner === null && (
        <Button size={size} loading={busy} disabled={lapsed} onClick={() => void act(true)}>
          I'm calling
        </Button>
      )}
      {problem && (
        <Text size="sm" c="red" role="alert" component="span">
          {problem}
        </Text>
      )}
    </>
  );
}
