// The site document and the page's chosen phone line, available to every block and the shell.
import { createContext, useContext } from 'react';
import type { PhoneLine, PhoneLineId, Site } from '../generated/content-types.ts';
import siteJson from '../site/site.json';

export const site = siteJson as Site;

export type SiteContextValue = { site: Site; phone: PhoneLine };

export const phoneFor = (line: PhoneLineId | undefined): PhoneLine => site.phones[line ?? 'primary'];

const SiteContext = createContext<SiteContextValue>({ site, phone: phoneFor('primary') });
export const SiteProvider = SiteContext.Provider;
export const useSite = (): SiteContextValue => useContext(SiteContext);
