import { describe, expect, it } from 'vitest';
import { netlifyRedirects, redirectRules, redirectTarget } from './redirects.ts';
import type { RedirectTable } from '../generated/content-types.ts';
import table from '../site/redirects.json' with { type: 'json' };

const rules = redirectRules(table as RedirectTable);

describe('redirects', () => {
  it('covers every row of the table', () => {
    expect(rules).toContainEqual({ from: '/alchohol', to: '/treatment/alcohol-addiction' });
    expect(rules).toContainEqual({ from: '/services/executive-detox', to: '/services/medical-detox' });
    expect(rules).toContainEqual({ from: '/facilities', to: '/#facility' });
    expect(rules.filter((rule) => rule.to === '/')).toHaveLength(14);
  });

  it('finds the target with or without a trailing slash, and nothing for other paths', () => {
    expect(redirectTarget(rules, '/rehab')).toBe('/services/inpatient-rehab');
    expect(redirectTarget(rules, '/rehab/')).toBe('/services/inpatient-rehab');
    expect(redirectTarget(rules, '/contact-us')).toBe('/#contact');
    expect(redirectTarget(rules, '/services/medical-detox')).toBeUndefined();
    expect(redirectTarget(rules, '/')).toBeUndefined();
  });

  it('writes the same rules for static hosts', () => {
    expect(netlifyRedirects(rules)).toContain('/benzos/ /treatment/benzodiazepine-addiction 301\n');
  });
});
