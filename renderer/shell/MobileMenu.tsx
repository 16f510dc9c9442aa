import { useRef, type MouseEvent } from 'react';
import { Button } from '@mantine/core';
import { IconAlertTriangle, IconChevronDown, IconMenu2, IconPhone, IconX } from '@tabler/icons-react';
import type { MenuItem } from '../../generated/content-types.ts';
import { useSite } from '../site-context.tsx';
import { SmartLink } from '../text/SmartLink.tsx';
import { LOOKS, prefetchMotion } from '../motion/motion.ts';
import { closeDetails, toggleFromSummary } from '../motion/disclosure.ts';

type LinkGroup = { category?: string; items: MenuItem[] };

function Section({ title, groups }: { title: string; groups: LinkGroup[] }) {
  return (
    <details className="mobile-section">
      <summary onClick={(event) => toggleFromSummary(event, LOOKS.disclosure)}>
        {title}
        <IconChevronDown size={18} aria-hidden className="faq-chevron" />
      </summary>
      {/* One element for what the section shows, so it moves as one. */}
      <div className="mobile-section-links">
        {groups.map((group) => (
          <div key={group.category ?? title}>
            {group.category && <p className="nav-group-title">{group.category}</p>}
            <ul className="mobile-links">
              {group.items.map((item) => (
                <li key={item.href}>
                  <SmartLink href={item.href}>{item.name}</SmartLink>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </details>
  );
}

/**
 * The phone menu is a <details> element, so it opens and closes without JavaScript; its three sections expand
 * independently. After hydration, choosing a link, pressing Escape or moving the focus past it closes it, and with
 * motion (renderer/motion/) the panel slides out from the edge and back, and the sections fade into place.
 */
export function MobileMenu() {
  const { site, phone } = useSite();
  const { header, labels } = site;
  const menuRef = useRef<HTMLDetailsElement>(null);
  const closeOnLink = (event: MouseEvent<HTMLElement>) => {
    if ((event.target as HTMLElement).closest('a') && menuRef.current)
      closeDetails(menuRef.current, LOOKS.panel);
  };
  return (
    <details
      className="mobile-menu"
      ref={menuRef}
      // Reaching for the menu fetches the motion code, so that it is there by the time the menu moves.
      onPointerDownCapture={prefetchMotion}
      onFocusCapture={prefetchMotion}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !event.currentTarget.open) return;
        closeDetails(event.currentTarget, LOOKS.panel);
        event.currentTarget.querySelector('summary')?.focus();
      }}
      onBlur={(event) => {
        // The panel covers the page: once the focus moves on past it, it closes.
        const next = event.relatedTarget;
        if (next instanceof Node && !event.currentTarget.contains(next))
          closeDetails(event.currentTarget, LOOKS.panel);
      }}
    >
      <summary
        className="mobile-toggle"
        aria-label={labels.openMenu}
        onClick={(event) => toggleFromSummary(event, LOOKS.panel)}
      >
        <IconMenu2 size={24} aria-hidden className="mobile-toggle-open" />
        <IconX size={24} aria-hidden className="mobile-toggle-close" />
      </summary>
      <div className="mobile-panel" onClick={closeOnLink}>
        <SmartLink href={header.home.href} className="mobile-top-link">
          {header.home.label}
        </SmartLink>
        <Section
          title={header.programs.label}
          groups={[
            {
              items: [
                ...header.programs.items,
                { name: header.consultation.label, href: header.consultation.href },
              ],
            },
          ]}
        />
        <Section title={header.treatments.label} groups={header.treatments.groups} />
        <Section title={header.about.label} groups={[{ items: header.about.items }]} />
        <SmartLink href={header.contact.href} className="mobile-top-link">
          {header.contact.label}
        </SmartLink>
        <Button
          component={SmartLink}
          href={header.emergency.href}
          color="red"
          variant="light"
          fullWidth
          mt="md"
          leftSection={<IconAlertTriangle size={18} aria-hidden />}
        >
          {header.emergency.label}
        </Button>
        <Button
          component="a"
          href={`tel:${phone.tel}`}
          fullWidth
          mt="xs"
          leftSection={<IconPhone size={18} aria-hidden />}
        >
          {header.callLabel} {phone.display}
        </Button>
      </div>
    </details>
  );
}
