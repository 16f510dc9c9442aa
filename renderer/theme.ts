import { createTheme, type MantineThemeOverride } from '@mantine/core';
import type { Site } from '../generated/content-types.ts';
import { currentSite } from './site-context.tsx';

// The brand colour is content (site.json), so the theme is made from the installed site, once per site document.
const themes = new WeakMap<Site, MantineThemeOverride>();

/** The Mantine theme of `site` (the installed site by default). */
export function siteTheme(site: Site = currentSite()): MantineThemeOverride {
  let theme = themes.get(site);
  if (!theme) {
    theme = makeTheme(site);
    themes.set(site, theme);
  }
  return theme;
}

const makeTheme = (site: Site) =>
  createTheme({
    primaryColor: site.theme.primaryColor,
    // Shade 9 keeps white text on filled buttons above WCAG AA contrast (5:1) in both schemes: the scheme is only
    // known in the browser, so server-rendered buttons cannot switch text colour per scheme.
    primaryShade: { light: 9, dark: 9 },
    autoContrast: true,
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    headings: {
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      fontWeight: '700',
    },
    defaultRadius: 'md',
  });

/**
 * The palette colours the site draws with: the brand colour, red (emergencies), orange (warnings), and the greys
 * Mantine uses for text, borders and the dark scheme. Only these colours' CSS variables are sent with each page
 * (renderer/head.ts); a block that needs another colour adds it here. tests/quality/theme-colors.test.ts checks
 * that the built pages use no other.
 */
export const palette = (site: Site = currentSite()): readonly string[] => [
  site.theme.primaryColor,
  'red',
  'orange',
  'gray',
  'dark',
];
