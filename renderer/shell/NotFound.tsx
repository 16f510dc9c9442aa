import { useEffect } from 'react';
import { Button, Container, Text, Title } from '@mantine/core';
import { useLocation } from '@tanstack/react-router';
import { useSite } from '../site-context.tsx';
import { RichText } from '../text/RichText.tsx';
import { SmartLink } from '../text/SmartLink.tsx';
import { useRouteHydrated } from './hydration-gate.ts';

export function NotFound() {
  useRouteHydrated();
  const { site } = useSite();
  const path = useLocation({ select: (location) => location.pathname });
  useEffect(() => {
    console.warn(`404: no page at ${path}`);
  }, [path]);
  return (
    <section className="section status-screen">
      <Container size="sm" ta="center">
        <p className="status-code">{site.notFound.code}</p>
        <Title order={1}>{site.notFound.heading}</Title>
        <Text size="lg" mt="md">
          <RichText text={site.notFound.text} />
        </Text>
        <Button component={SmartLink} href="/" size="lg" mt="xl">
          {site.notFound.homeLabel}
        </Button>
      </Container>
    </section>
  );
}
