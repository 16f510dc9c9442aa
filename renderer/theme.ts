import { createTheme } from '@mantine/core';
import { site } from './site-context.tsx';

export const theme = createTheme({
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
export const PALETTE: readonly string[] = [site.theme.primaryColor, 'red', 'orange', 'gray', 'dark'];
