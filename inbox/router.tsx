// The inbox's routes, code-based, under /staff/: the list, a lead, sign-in, enrolment, the audit log and the account.
import { createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { isLeadStatus } from '../server/store/contract/inbox.ts';
import type { ListSearch } from './list/Filters.tsx';
import { Layout } from './Layout.tsx';
import { LeadList } from './list/LeadList.tsx';
import { LeadPage } from './lead/LeadPage.tsx';
import { SignIn } from './auth/SignIn.tsx';
import { Enrol } from './auth/Enrol.tsx';
import { Account } from './auth/Account.tsx';
import { AuditLog } from './audit/AuditLog.tsx';

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

const localDate = (value: unknown) =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;

const rootRoute = createRootRoute({ component: Layout });

/** The list's filters live in its address, so a reload, a shared link and the CSV export keep them. */
export const listRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  validateSearch: (search: Record<string, unknown>): ListSearch => ({
    status: isLeadStatus(search.status) ? search.status : undefined,
    form: text(search.form),
    from: localDate(search.from),
    to: localDate(search.to),
    q: text(search.q),
  }),
  component: LeadList,
});
export const leadRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/leads/$id',
  component: LeadPage,
});
export const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  // Only a path inside the app, so a crafted link cannot send a signed-in person elsewhere.
  validateSearch: (search: Record<string, unknown>): { next?: string } => {
    const next = text(search.next);
    return { next: next?.startsWith('/') && !next.startsWith('//') ? next : undefined };
  },
  component: SignIn,
});
const enrolRoute = createRoute({ getParentRoute: () => rootRoute, path: '/enrol', component: Enrol });
const auditRoute = createRoute({ getParentRoute: () => rootRoute, path: '/audit', component: AuditLog });
const accountRoute = createRoute({ getParentRoute: () => rootRoute, path: '/account', component: Account });

// Not registered with TanStack Router's global `Register`: the site's router (renderer/router.tsx) is, in the same
// type-check. Screens use their route's own hooks (`listRoute.useSearch()`), which are typed without it.
export const router = createRouter({
  routeTree: rootRoute.addChildren([listRoute, leadRoute, signInRoute, enrolRoute, auditRoute, accountRoute]),
  basepath: '/staff',
  defaultNotFoundComponent: () => <p>There is no such page in the inbox.</p>,
});
