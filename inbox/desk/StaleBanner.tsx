// Never silently stale: one full-width banner with two messages. Signed out under an open screen (the idle limit, a
// revoke, the session's time limit): "Signed out: new requests are not showing", why when it was for being away, and a
// button to sign in again that comes back to this same view (the list's filters and sort are in its address, the
// search term in memory). The event stream down for more than STALE_AFTER_MS: "Reconnecting". Both give the time of
// the last update, and the tab's title says the same (attention.ts), so a tab in the background tells it too.
import { Alert, Button, Text } from '@mantine/core';
import { IconLogin, IconPlugConnectedX } from '@tabler/icons-react';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { exactTime } from '../format.ts';
import { duration, signedOutReason } from '../idle.ts';
import { pathInApp } from '../session.ts';
import { setTitleState } from './attention.ts';
import { useCurrency } from './currency.ts';

export function StaleBanner() {
  const { state, asOf } = useCurrency();
  const navigate = useNavigate();
  const here = useRouterState({ select: (router) => router.location.href });
  useEffect(() => {
    setTitleState(state === 'live' ? undefined : state);
    return () => setTitleState(undefined);
  }, [state]);
  if (state === 'live') return null;
  const lastUpdate = `Last update ${exactTime(new Date(asOf).toISOString())}.`;
  if (state === 'reconnecting')
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
        {lastUpdate} The list updates again as soon as the connection is back; reload the page if it does not.
      </Alert>
    );
  const reason = signedOutReason();
  return (
    <Alert
      role="alert"
      color="red"
      variant="filled"
      radius={0}
      className="inbox-stale"
      icon={<IconLogin aria-hidden />}
      title="Signed out: new requests are not showing"
    >
      <Text size="sm" component="p" m={0}>
        {reason?.kind === 'idle'
          ? `You were signed out after ${duration(reason.idleSeconds)} without activity, to protect your patients' privacy. `
          : reason?.kind === 'limit'
            ? "Your session reached its time limit, so you were signed out to protect your patients' privacy. "
            : 'Your session was ended. '}
        {lastUpdate} What is below is as it was then.
      </Text>
      <Button
        mt="xs"
        variant="white"
        color="red"
        leftSection={<IconLogin aria-hidden />}
        // Back to this very view after signing in: the sign-in screen returns to `next` (auth/SignIn.tsx).
        onClick={() => void navigate({ to: '/sign-in', search: { next: pathInApp(here) } })}
      >
        Sign in again
      </Button>
    </Alert>
  );
}
