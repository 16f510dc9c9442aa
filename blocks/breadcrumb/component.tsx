import { Container } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import type { BlockProps } from '../types.ts';
import { breadcrumbTrail } from '../../renderer/content/breadcrumbs.ts';
import { usePage } from '../../renderer/page-context.tsx';
import { useSite } from '../../renderer/site-context.tsx';
import { SmartLink } from '../../renderer/text/SmartLink.tsx';
import './styles.css';

export function BreadcrumbBlock({ block }: BlockProps<'breadcrumb'>) {
  const { site } = useSite();
  const page = usePage();
  const trail = breadcrumbTrail(page.path, block.label ?? page.name, site.breadcrumbs);
  return (
    <nav aria-label={site.breadcrumbs.label} className="breadcrumb" id={block.id}>
      <Container size="lg">
        <ol>
          {trail.map((crumb, index) => (
            <li key={crumb.label}>
              {index > 0 && <IconChevronRight size={14} aria-hidden className="breadcrumb-separator" />}
              {crumb.href ? (
                <SmartLink href={crumb.href}>{crumb.label}</SmartLink>
              ) : (
                <span aria-current={index === trail.length - 1 ? 'page' : undefined}>{crumb.label}</span>
              )}
            </li>
          ))}
        </ol>
      </Container>
    </nav>
  );
}
