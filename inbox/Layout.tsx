// Every screen's frame: the header (the inbox's name, its sections for the signed-in, the colour scheme switch),
// then the screen. Screens that need a session wait for it, and the sign-in screen takes over when there is none.
import { ActionIcon, Alert, Anchor, Container, Group, Loader, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { SessionProvider, isPublicPath, useSession } from './session.tsx';

function ColorSchemeSwitch() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const dark =
    colorScheme === 'dark' || (colorScheme === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
  return (
    <ActionIcon
      variant="subtle"
      size={44}
      aria-label={dark ? 'Use the light theme' : 'Use the dark theme'}
      onClick={() => setColorScheme(dark ? 'light' : 'dark')}
    >
      {dark ? <IconSun aria-hidden /> : <IconMoon aria-hidden />}
    </ActionIcon>
  );
}

function Screen() {
  const { me, problem } = useSession();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  if (isPublicPath(pathname)) return <Outlet />;
  if (problem)
    return (
      <Alert color="red" title="The inbox cannot start">
        {problem}
      </Alert>
    );
  // Signed out: the session sends the staff member to sign in; nothing of the screen is drawn meanwhile.
  if (!me) return <Loader aria-label="Loading" />;
  return <Outlet />;
}

function Header() {
  const { me } = useSession();
  return (
    <header className="inbox-header">
      <Container size="lg">
        <Group justify="space-between" gap={0}>
          <Anchor component={Link} to="/" className="inbox-title" underline="never">
            Admissions inbox
          </Anchor>
          <Group gap={0} wrap="nowrap" component="nav" aria-label="Inbox sections">
            {me && (
              <>
                <Anchor component={Link} to="/" className="inbox-nav-link">
                  Leads
                </Anchor>
                {me.admin && (
                  <Anchor component={Link} to="/audit" className="inbox-nav-link">
                    Audit log
                  </Anchor>
                )}
                <Anchor component={Link} to="/account" className="inbox-nav-link">
                  Account
                </Anchor>
              </>
            )}
            <ColorSchemeSwitch />
          </Group>
        </Group>
      </Container>
    </header>
  );
}

export function Layout() {
  return (
    <SessionProvider>
      <Header />
      <Container size="lg" component="main" className="inbox-main">
        <Screen />
      </Container>
    </SessionProvider>
  );
}
