// Every screen's frame: the header (the inbox's name, its sections for the signed-in, the colour scheme switch),
// then the screen. Screens that need a session are drawn only with one (the root route's `beforeLoad`, router.tsx);
// while there is one, the idle watch warns before it ends (auth/IdleWatch.tsx).
import {
  ActionIcon,
  Alert,
  Anchor,
  Container,
  Group,
  Loader,
  Menu,
  useMantineColorScheme,
} from '@mantine/core';
import { IconChevronDown, IconMoon, IconSun } from '@tabler/icons-react';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { CONTENT_ROLES, holdsAny, type Me } from '../contracts/staff-api.ts';
import { appName, worksLeads } from './app-name.ts';
import { IdleWatch } from './auth/IdleWatch.tsx';
import { setTitleBase } from './desk/attention.ts';
import { DeskWatch } from './desk/DeskWatch.tsx';
import { StaleBanner } from './desk/StaleBanner.tsx';
import { isPublicPath, useSession } from './session.ts';

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
  // Signed out: the root route sends the staff member to sign in; nothing of the screen is drawn meanwhile.
  if (!me) return <Loader aria-label="Loading" />;
  return <Outlet />;
}

/** The admins' screens, in one menu so the header fits a phone. */
function AdminMenu() {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        {/* A button that reads as the links beside it. */}
        <Anchor component="button" type="button" className="inbox-nav-link" underline="hover">
          Admin <IconChevronDown size={16} aria-hidden />
        </Anchor>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/team">
          Staff
        </Menu.Item>
        <Menu.Item component={Link} to="/speed-to-lead">
          Speed to lead
        </Menu.Item>
        <Menu.Item component={Link} to="/audit">
          Audit log
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function Header({ me }: { me: Me | null | undefined }) {
  return (
    <header className="inbox-header">
      <Container size="lg">
        <Group justify="space-between" gap={0}>
          <Anchor component={Link} to="/" className="inbox-title" underline="never">
            {appName(me)}
          </Anchor>
          <Group gap={0} wrap="nowrap" component="nav" aria-label="Inbox sections">
            {me && (
              <>
                {worksLeads(me) && (
                  <Anchor component={Link} to="/" className="inbox-nav-link">
                    Leads
                  </Anchor>
                )}
                {holdsAny(me.roles, CONTENT_ROLES) && (
                  <Anchor component={Link} to="/changes" className="inbox-nav-link">
                    Changes
                  </Anchor>
                )}
                {me.admin && <AdminMenu />}
                {/* The studio's editor online (a page of its own, /staff/edit/), for editors and admins. */}
                {(me.admin || me.roles.includes('editor')) && (
                  <Anchor href="/staff/edit/" className="inbox-nav-link">
                    Edit the site
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
  const { me } = useSession();
  const name = appName(me);
  useEffect(() => setTitleBase(name), [name]);
  return (
    <>
      {me && <IdleWatch />}
      <Header me={me} />
      {/* The desk's watch (the lead stream, tones, the title's count) for those who work leads; the banner for all. */}
      {me && (worksLeads(me) ? <DeskWatch /> : <StaleBanner />)}
      <Container size="lg" component="main" className="inbox-main">
        <Screen />
      </Container>
    </>
  );
}

/** While the app first asks the server who is signed in: nothing of the screen is drawn meanwhile. */
export function PendingLayout() {
  return (
    <>
      <Header me={undefined} />
      <Container size="lg" component="main" className="inbox-main">
        <Loader aria-label="Loading" />
      </Container>
    </>
  );
}
