// The inbox's routes, code-based, under /staff/: the list, a lead, sign-in, enrolment, the audit log and the account.
// Each route loads its data (`loader`, with the list's filters as `loaderDeps`) and the root route finds out who is
// signed in before any screen (`beforeLoad`), sending the signed-out to sign in and back. Screens reach their route
// by id (`getRouteApi`), so this file is the only one that imports them.
import { createRootRoute, createRoute, createRouter, redirect } from '@tanstack/react-router';
import { api, whenSignedOut } from './api.ts';
import { Layout, PendingLayout } from './Layout.tsx';
import { settle } from './loaded.ts';
import { isPublicPath, pathInApp, readSession, signedOut } from './session.ts';
import { toApiFilter, validateListSearch, validateNext } from './list/list-search.ts';
import { searchTerm } from './list/search-term.ts';
import { LeadList } from './list/LeadList.tsx';
import { LeadPage } from './lead/LeadPage.tsx';
import { SignIn } from './auth/SignIn.tsx';
import { Enrol } from './auth/Enrol.tsx';
import { Account } from './auth/Account.tsx';
import { AuditLog } from './audit/AuditLog.tsx';
import { adminApi, DEFAULT_WEEKS } from './admin/admin-api.ts';
import { SpeedToLead } from './admin/SpeedToLead.tsx';
import { Team } from './admin/Team.tsx';
import { CONTENT_ROLES, holdsAny } from '../contracts/staff-api.ts';
import { worksLeads } from './app-name.ts';
import { contentApi } from './content/content-api.ts';
import { ChangeList } from './content/ChangeList.tsx';
import { ChangePage } from './content/ChangePage.tsx';
import { History } from './content/History.tsx';

const rootRoute = createRootRoute({
  beforeLoad: async ({ location }) => {
    const session = await readSession();
    if (session.me === null && !session.problem && !isPublicPath(location.pathname))
      throw redirect({ to: '/sign-in', search: { next: pathInApp(location.href) }, replace: true });
    return session;
  },
  component: Layout,
  // While the app first asks who is signed in: the header, and a spinner where the screen will be.
  pendingComponent: PendingLayout,
  pendingMs: 0,
  pendingMinMs: 0,
});

// Loaders hand their screens the request's promise (settled): the screen draws at once, with its own loading text.
const listRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  validateSearch: validateListSearch,
  // The search term is a dependency too, read from memory: it is never in the address.
  // Editorial staff see no leads (the server refuses them): their start is the change sets.
  beforeLoad: ({ context }) => {
    if (context.me && !worksLeads(context.me)) throw redirect({ to: '/changes', replace: true });
  },
  loaderDeps: ({ search }) => toApiFilter({ ...search, q: searchTerm() }),
  loader: ({ deps }) => ({ firstPage: settle(api.leads(deps)), filter: deps }),
  component: LeadList,
});
const leadRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/leads/$id',
  loader: ({ params }) => ({ lead: settle(api.lead(params.id)) }),
  component: LeadPage,
});
const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  validateSearch: validateNext,
  component: SignIn,
});
const enrolRoute = createRoute({ getParentRoute: () => rootRoute, path: '/enrol', component: Enrol });
const auditRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/audit',
  // Only admins read the log: nothing is asked for anyone else.
  loader: ({ context }) => ({ firstPage: context.me?.admin ? settle(api.audit()) : undefined }),
  component: AuditLog,
});
// Admins' screens: nothing is asked for anyone else.
const staffRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/team',
  loader: ({ context }) => ({ team: context.me?.admin ? settle(adminApi.team()) : undefined }),
  component: Team,
});
const speedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/speed-to-lead',
  loader: ({ context }) => ({
    report: context.me?.admin ? settle(adminApi.speedToLead(DEFAULT_WEEKS)) : undefined,
  }),
  component: SpeedToLead,
});
// Change sets (issue #28), for editorial staff and admins: nothing is asked for admissions-only members.
const changesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/changes',
  loader: ({ context }) => ({
    changes:
      context.me && holdsAny(context.me.roles, CONTENT_ROLES) ? settle(contentApi.changes()) : undefined,
  }),
  component: ChangeList,
});
const changeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/changes/$id',
  loader: ({ context, params }) => ({
    change:
      context.me && holdsAny(context.me.roles, CONTENT_ROLES)
        ? settle(contentApi.change(params.id))
        : undefined,
  }),
  component: ChangePage,
});
const historyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/history',
  validateSearch: (search: Record<string, unknown>): { file?: string } =>
    typeof search.file === 'string' && /^pages\/[\w/-]+\.json$/.test(search.file)
      ? { file: search.file }
      : {},
  component: History,
});
const accountRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/account',
  loader: ({ context }) => ({ me: context.me, sessions: settle(api.sessions()) }),
  component: Account,
});

export const router = createRouter({
  routeTree: rootRoute.addChildren([
    listRoute,
    leadRoute,
    signInRoute,
    enrolRoute,
    auditRoute,
    staffRoute,
    speedRoute,
    changesRoute,
    changeRoute,
    historyRoute,
    accountRoute,
  ]),
  basepath: '/staff',
  defaultNotFoundComponent: () => <p>There is no such page in the inbox.</p>,
});

// The inbox's own router, registered in the inbox's own TypeScript project (tsconfig.inbox.json): the site registers
// its router in its project, so each app's links, hooks and `getRouteApi` ids are checked against its own routes.
declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

// A 401 from any request: the session is over. An open list or lead stays, marked as no longer current, with a
// button to sign in again (session.ts); elsewhere the root route sends the staff member to sign in, and back after.
whenSignedOut(() => {
  if (!signedOut()) void router.invalidate();
});
