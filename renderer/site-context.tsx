// The site document and the page's chosen phone line, available to every block and the shell.
import { createContext, useContext } from 'react';
import type { PhoneLine, PhoneLineId, Site } from '../generated/content-types.ts';
import { siteData } from './site-data.ts';

export type SiteContextValue = { site: Site; phone: PhoneLine };

/** The installed site document (renderer/site-data.ts): content given at run time, never bundled. */
export const currentSite = (): Site => siteData().site;

export const phoneFor = (line: PhoneLineId | undefined, site: Site = currentSite()): PhoneLine =>
  site.phones[line ?? 'primary'];

// Without a provider (a block rendered alone, in a test or a preview), the installed site and its primary line.
const SiteContext = createContext<SiteContextValue | undefined>(undefined);
export const SiteProvider = SiteContext.Provider;
export const useSite = (): SiteContextValue => {
  const value = useContext(SiteContext);
  if (value) return value;
  const site = currentSite();
  return { site, phone: phoneFor('primary', site) };
};
