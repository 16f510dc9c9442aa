// What the staff app is to the one signed in: the admissions inbox to those who work leads (admissions staff and
// admins), the site's content to editorial staff, who never see a lead (the server refuses them: staff-roles.ts).
import { holdsAny, LEAD_ROLES, type Me } from '../contracts/staff-api.ts';

export const worksLeads = (me: Me): boolean => holdsAny(me.roles, LEAD_ROLES);

export const appName = (me: Me | null | undefined): string =>
  me && !worksLeads(me) ? 'Site content' : 'Admissions inbox';
