import { describe, expect, it } from 'vitest';
import { breadcrumbTrail } from './breadcrumbs.ts';
import { currentSite } from '../site-context.tsx';

const site = currentSite();

describe('breadcrumbTrail', () => {
  it('goes Home, Treatment Programs, page for treatment pages', () => {
    expect(breadcrumbTrail('/treatment/tramadol-addiction', 'Tramadol Addiction', site.breadcrumbs)).toEqual([
      { label: 'Home', href: '/' },
      { label: 'Treatment Programs', href: '/#programs' },
      { label: 'Tramadol Addiction' },
    ]);
  });

  it('chooses Services or Crisis Support by the first path segment', () => {
    expect(breadcrumbTrail('/services/dual-diagnosis', 'Dual Diagnosis', site.breadcrumbs)[1]).toEqual({
      label: 'Services',
      href: '/#services',
    });
    expect(
      breadcrumbTrail('/crisis/cant-stop-drinking', "Can't Stop Drinking", site.breadcrumbs)[1]?.label,
    ).toBe('Crisis Support');
  });

  it('names the section without a link when its address is the page itself', () => {
    expect(breadcrumbTrail('/crisis/emergency-help', 'Emergency Help', site.breadcrumbs)).toEqual([
      { label: 'Home', href: '/' },
      { label: 'Crisis Support' },
      { label: 'Emergency Help' },
    ]);
  });

  it('has no middle crumb for top-level pages or unknown sections', () => {
    expect(breadcrumbTrail('/insurance-verification', 'Insurance Verification', site.breadcrumbs)).toEqual([
      { label: 'Home', href: '/' },
      { label: 'Insurance Verification' },
    ]);
    expect(breadcrumbTrail('/other/page', 'Page', site.breadcrumbs)).toHaveLength(2);
  });
});
