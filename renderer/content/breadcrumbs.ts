import type { BreadcrumbSettings } from '../../generated/content-types.ts';

export type Crumb = { label: string; href?: string };

/**
 * Home, then the section named by the path's first segment (treatment, services, crisis), then the page itself
 * (no link: it is where the visitor is). A section whose address is this very page (Crisis Support on the
 * emergency page) is named without a link to itself.
 */
export function breadcrumbTrail(path: string, pageName: string, settings: BreadcrumbSettings): Crumb[] {
  const trail: Crumb[] = [{ label: settings.home.label, href: settings.home.href }];
  const section = settings.sections[path.split('/')[1] ?? ''];
  if (section && path.split('/').length > 2)
    trail.push(
      section.href === path ? { label: section.label } : { label: section.label, href: section.href },
    );
  if (path !== '/') trail.push({ label: pageName });
  return trail;
}
