import { useRef, useState } from 'react';
import { Button, Container, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconChevronDown, IconMail, IconPhone } from '@tabler/icons-react';
import type { Menu, MenuItem } from '../../generated/content-types.ts';
import { useSite } from '../site-context.tsx';
import { SmartLink } from '../text/SmartLink.tsx';
import { MobileMenu } from './MobileMenu.tsx';

/**
 * A desktop menu: CSS opens it on hover and on keyboard focus inside it, so it works before any script runs. After
 * hydration, Escape closes it and gives the focus back to its button, and choosing a link closes it (the header
 * stays on screen across pages, so the link would otherwise keep it open by its focus); it opens again when the
 * pointer comes back, its button is pressed, or the focus has left it.
 */
function DesktopMenu({
  label,
  children,
  wide,
}: {
  label: string;
  children: React.ReactNode;
  wide?: boolean;
}) {
  const [dismissed, setDismissed] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const reopenWhenLeft = (menu: HTMLElement, next: EventTarget | null) => {
    if (!(next instanceof Node && menu.contains(next)) && !menu.matches(':hover')) setDismissed(false);
  };
  return (
    <li
      className="nav-menu"
      data-dismissed={dismissed || undefined}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || dismissed) return;
        setDismissed(true);
        triggerRef.current?.focus();
      }}
      onClick={(event) => {
        const target = event.target as HTMLElement;
        if (target.closest('a')) setDismissed(true);
        else if (target.closest('.nav-trigger')) setDismissed(false);
      }}
      onBlur={(event) => reopenWhenLeft(event.currentTarget, event.relatedTarget)}
      onMouseEnter={() => setDismissed(false)}
    >
      <button type="button" className="nav-trigger" aria-haspopup="true" ref={triggerRef}>
        {label}
        <IconChevronDown size={16} aria-hidden />
      </button>
      <div className={wide ? 'nav-panel nav-panel-wide' : 'nav-panel'}>{children}</div>
    </li>
  );
}

function MenuLinks({ items }: { items: MenuItem[] }) {
  return (
    <ul className="nav-links">
      {items.map((item) => (
        <li key={item.href}>
          <SmartLink href={item.href} className="nav-link">
            <span className="nav-link-name">{item.name}</span>
            {item.description && <span className="nav-link-description">{item.description}</span>}
          </SmartLink>
        </li>
      ))}
    </ul>
  );
}

export function Header() {
  const { site, phone } = useSite();
  const { header } = site;
  const menu = (m: Menu) => <MenuLinks items={m.items} />;
  return (
    <header className="site-header">
      <div className="topbar">
        <Container size="xl">
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" fw={600}>
              {site.labels.available247}:{' '}
              <a href={`tel:${phone.tel}`} className="topbar-link">
                {phone.display}
              </a>
            </Text>
            <a href={`mailto:${site.email}`} className="topbar-link topbar-email">
              <IconMail size={16} aria-hidden />{' '}
              <span className="visually-hidden">{site.labels.emailUs}: </span>
              {site.email}
            </a>
          </Group>
        </Container>
      </div>
      <Container size="xl">
        <nav aria-label={site.labels.mainNavigation} className="main-nav">
          <SmartLink href={header.home.href} className="brand">
            {site.brand.name}
          </SmartLink>
          <ul className="nav-desktop">
            <DesktopMenu label={header.programs.label}>
              {menu(header.programs)}
              <Button component={SmartLink} href={header.consultation.href} fullWidth mt="xs">
                {header.consultation.label}
              </Button>
            </DesktopMenu>
            <DesktopMenu label={header.treatments.label} wide>
              <div className="nav-groups">
                {header.treatments.groups.map((group) => (
                  <div key={group.category}>
                    <p className="nav-group-title">{group.category}</p>
                    <MenuLinks items={group.items} />
                  </div>
                ))}
              </div>
            </DesktopMenu>
            <DesktopMenu label={header.about.label}>{menu(header.about)}</DesktopMenu>
            <li>
              <SmartLink href={header.contact.href} className="nav-trigger">
                {header.contact.label}
              </SmartLink>
            </li>
          </ul>
          <Group gap="xs" wrap="nowrap" className="nav-actions">
            <Button
              component={SmartLink}
              href={header.emergency.href}
              color="red"
              variant="light"
              leftSection={<IconAlertTriangle size={18} aria-hidden />}
              className="nav-emergency"
            >
              {header.emergency.label}
            </Button>
            <Button
              component="a"
              href={`tel:${phone.tel}`}
              aria-label={`${header.callLabel}, ${phone.display}`}
              leftSection={<IconPhone size={18} aria-hidden />}
            >
              {header.callLabel}
            </Button>
            <MobileMenu />
          </Group>
        </nav>
      </Container>
    </header>
  );
}
