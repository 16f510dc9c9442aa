import { useEffect } from 'react';
import { Button, Container, Group, Text, Title } from '@mantine/core';
import { IconPhone } from '@tabler/icons-react';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { useSite } from '../site-context.tsx';
import { useRouteHydrated } from './hydration-gate.ts';

/** Shown when a page fails to render: an apology, a way to try again and a phone number that always works. */
export function ErrorScreen({ error, reset }: ErrorComponentProps) {
  useRouteHydrated();
  const { site, phone } = useSite();
  const router = useRouter();
  // Try Again loads the page's data again as well, so a failed load recovers, not only a failed render.
  const tryAgain = () => {
    reset();
    void router.invalidate();
  };
  useEffect(() => {
    console.error('Render failure', error);
  }, [error]);
  return (
    <section className="section status-screen" role="alert">
      <Container size="sm" ta="center">
        <Title order={1}>{site.errorScreen.heading}</Title>
        <Text size="lg" mt="md">
          {site.errorScreen.text}
        </Text>
        <Group justify="center" mt="xl">
          <Button size="lg" onClick={tryAgain}>
            {site.errorScreen.retryLabel}
          </Button>
          <Button
            component="a"
            href={`tel:${phone.tel}`}
            size="lg"
            variant="outline"
            leftSection={<IconPhone size={20} aria-hidden />}
          >
            {site.errorScreen.callLabel}
          </Button>
        </Group>
      </Container>
    </section>
  );
}
