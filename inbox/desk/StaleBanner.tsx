// Never silently stale: while the event stream is down for more than STALE_AFTER_MS, a banner across the screen says
// that new requests are not showing, and since when the screen is current. It goes as soon as the stream is back.
import { Alert } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { exactTime } from '../format.ts';
import { onHealth, type StreamHealth } from './desk-stream.ts';

export function StaleBanner() {
  const [health, setHealth] = useState<StreamHealth>();
  useEffect(() => onHealth(setHealth), []);
  if (health?.state !== 'reconnecting') return null;
  return (
    <Alert
      role="alert"
      color="red"
      variant="filled"
      radius={0}
      className="inbox-stale"
      icon={<IconPlugConnectedX aria-hidden />}
      title="Reconnecting: new requests are not showing"
    >
      Last update {exactTime(new Date(health.lastUpdate).toISOString())}. The list updates again as soon as
      the connection is back; reload the page if it does not.
    </Alert>
  );
}
