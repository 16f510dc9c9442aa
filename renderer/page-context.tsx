// The page being rendered, for blocks whose content is derived from it (breadcrumb, related programs).
import { createContext, useContext } from 'react';

export type PageContextValue = { path: string; name: string };

const PageContext = createContext<PageContextValue>({ path: '/', name: '' });
export const PageProvider = PageContext.Provider;
export const usePage = (): PageContextValue => useContext(PageContext);
