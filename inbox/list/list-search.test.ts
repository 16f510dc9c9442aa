import { describe, expect, it } from 'vitest';
import { statusesOf, toApiFilter, validateListSearch } from './list-search.ts';
import { urgencyRank } from './urgency.ts';

describe("the list's address", () => {
  it('keeps several known statuses, in the contract order, and drops the rest', () => {
    expect(statusesOf('not-reached,new,bogus,new')).toEqual(['new', 'not-reached']);
    expect(validateListSearch({ status: 'closed,new' }).status).toBe('new,closed');
    expect(validateListSearch({ status: 'bogus' }).status).toBeUndefined();
  });

  it("keeps a sort only when it is not the view's own order", () => {
    expect(validateListSearch({ sort: 'urgency' }).sort).toBe('urgency');
    expect(validateListSearch({ sort: 'due' }).sort).toBeUndefined();
    expect(validateListSearch({ view: 'all', sort: 'due' }).sort).toBe('due');
    expect(validateListSearch({ view: 'all', sort: 'arrival' }).sort).toBeUndefined();
    expect(validateListSearch({ sort: 'name' }).sort).toBeUndefined();
  });

  it('leaves closed leads out of "all" unless a status is picked or a name is searched', () => {
    expect(toApiFilter({ view: 'all' }).status).toBe('new,contacted,admitted,referred,not-reached');
    expect(toApiFilter({ view: 'all', status: 'closed' }).status).toBe('closed');
    expect(toApiFilter({ view: 'all', q: 'Okafor' }).status).toBeUndefined();
    expect(toApiFilter({}).view).toBe('needs-action');
    expect(toApiFilter({}).status).toBeUndefined();
  });
});

describe('urgency rank', () => {
  it("follows the form's own order of choices, and puts a lead without one last", () => {
    const rank = (urgency: string | null) => urgencyRank({ formId: 'consultation', urgency });
    expect(rank('Immediate: need help today')).toBe(0);
    expect(rank('Urgent: within 48 hours')).toBe(1);
    expect(rank('Immediate: need help today')).toBeLessThan(rank('Urgent: within 48 hours'));
    expect(rank(null)).toBe(Number.POSITIVE_INFINITY);
    expect(urgencyRank({ formId: 'no-such-form', urgency: 'Immediate' })).toBe(Number.POSITIVE_INFINITY);
  });
});
