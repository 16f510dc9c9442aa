// The change set page as its reader gets it (server-rendered markup in a DOM): who must approve in plain words, stale
// approvals marked, "live on N of N", a failed schedule with its reason, and the approve button refused to the author.
import { describe, expect, it } from 'vitest';
import type { ChangeView } from '../../contracts/content-api.ts';
import type { Me } from '../../contracts/staff-api.ts';
import { renderToDom, visibleText } from '../../tests/helpers/render-to-dom.tsx';
import { ChangeActions } from './ChangeActions.tsx';
import { ChangeDetails } from './ChangePage.tsx';
import { DocumentChanges } from './Review.tsx';

const change = (over: Partial<ChangeView> = {}): ChangeView => ({
  id: 'c1',
  title: 'Detox duration',
  author: 'ed@example.com',
  state: 'in_review',
  baseRelease: 3,
  release: null,
  live: null,
  documents: [
    {
      path: 'pages/services/fentanyl-detox.json',
      title: 'Fentanyl Detox | Coastline Recovery',
      version: 'v2',
      created: false,
      deleted: false,
      summary: null,
      updatedBy: 'ed@example.com',
      updatedAt: '2026-11-28T05:00:00.000Z',
    },
  ],
  requires: ['clinical', 'other'],
  missing: ['clinical'],
  approvals: [
    { by: 'maya@example.com', at: '2026-11-28T05:10:00.000Z', covers: ['clinical', 'other'], stale: true },
  ],
  editors: ['ed@example.com'],
  comments: [],
  schedule: null,
  timeZone: 'America/Los_Angeles',
  ...over,
});

const member = (email: string, roles: Me['roles']): Me => ({
  email,
  roles,
  admin: roles.includes('admin'),
  passkeys: [],
  idleExpiresAt: '2026-11-28T06:00:00.000Z',
  expiresAt: '2026-11-28T12:00:00.000Z',
  idleSeconds: 1800,
  serverTime: '2026-11-28T05:30:00.000Z',
});

const noReload = async () => undefined;

describe('the change set page', () => {
  it('says who must approve, marks a stale approval and what is still missing', async () => {
    const text = visibleText(await renderToDom(<ChangeDetails change={change()} />, '/'));
    expect(text).toContain(
      'Needs approval from a clinical reviewer (medical claims) and any reviewer (other content).',
    );
    expect(text).toContain('Still missing an approval from a clinical reviewer.');
    expect(text).toMatch(
      /maya@example\.com approved medical claims, other content.*Stale: the content changed after it/,
    );
    expect(text).not.toContain('clinical,');
    // Each document by what staff call it, its file beside it.
    expect(text).toContain(
      'Fentanyl Detox | Coastline Recovery (pages/services/fentanyl-detox.json): Changed. Last saved by ed@example.com',
    );
  });

  it('shows "live on N of N" once published, and a failed schedule with its reason', async () => {
    const published = visibleText(
      await renderToDom(
        <ChangeDetails
          change={change({ state: 'published', release: '9', live: { on: 2, of: 2 }, missing: [] })}
        />,
        '/',
      ),
    );
    expect(published).toContain('Live on 2 of 2');
    const failed = visibleText(
      await renderToDom(
        <ChangeDetails
          change={change({
            schedule: {
              at: '2026-11-28T07:00:00.000Z',
              by: 'pub@example.com',
              state: 'failed',
              error: 'a link is broken',
            },
          })}
        />,
        '/',
      ),
    );
    expect(failed).toContain('The scheduled publish failed');
    expect(failed).toContain('a link is broken');
  });

  it('refuses the approve button to the author, with the reason; offers it to another reviewer', async () => {
    const author = await renderToDom(
      <ChangeActions
        change={change()}
        me={member('ed@example.com', ['editor', 'reviewer'])}
        reload={noReload}
      />,
      '/',
    );
    const refused = [...author.querySelectorAll('button')].find(
      (button) => visibleText(button) === 'Approve',
    );
    expect(refused?.hasAttribute('disabled')).toBe(true);
    const reasonId = refused?.getAttribute('aria-describedby') ?? '';
    expect(visibleText(author.querySelector(`[id="${reasonId}"]`) as Element)).toBe(
      'You edited this change set: someone else must approve it (four eyes).',
    );

    const other = await renderToDom(
      <ChangeActions change={change()} me={member('maya@example.com', ['reviewer'])} reload={noReload} />,
      '/',
    );
    const offered = [...other.querySelectorAll('button')].find((button) => visibleText(button) === 'Approve');
    expect(offered?.hasAttribute('disabled')).toBe(false);
    // A reviewer who is not an editor or publisher gets neither Edit nor Publish.
    expect(visibleText(other)).not.toMatch(/\bEdit\b|Publish\b/);
  });

  it('gives editors an Edit link to the editor with the change set in the address, publishers Publish', async () => {
    const body = await renderToDom(
      <ChangeActions
        change={change()}
        me={member('pub@example.com', ['editor', 'publisher'])}
        reload={noReload}
      />,
      '/',
    );
    expect(body.querySelector('a[href="/staff/edit/?change=c1"]')).not.toBeNull();
    expect([...body.querySelectorAll('button')].map((button) => visibleText(button))).toContain('Publish');
  });

  it('shows a pending schedule on the site clock; offers a publisher its cancelling, after asking; not of one running, nor to others', async () => {
    const pending = change({
      missing: [],
      schedule: { at: '2026-12-01T17:00:00.000Z', by: 'pub@example.com', state: 'pending', error: null },
    });
    const publisherView = await renderToDom(
      <ChangeActions change={pending} me={member('pub@example.com', ['publisher'])} reload={noReload} />,
      '/',
    );
    const buttons = (body: HTMLElement) =>
      [...body.querySelectorAll('button')].map((button) => visibleText(button));
    // On the site's clock, named, whatever this process's zone (the browser test runs one in Berlin).
    expect(visibleText(publisherView)).toContain(
      'Publishes on its own at Dec 1, 2026, 9:00 AM Pacific time.',
    );
    expect(visibleText(publisherView)).toContain('Publish at (Pacific time)');
    // The form holds the pending time, to move it.
    expect(publisherView.querySelector('input[type="datetime-local"]')?.getAttribute('value')).toBe(
      '2026-12-01T09:00',
    );
    expect(buttons(publisherView)).toContain('Move the schedule');
    const details = visibleText(await renderToDom(<ChangeDetails change={pending} />, '/'));
    expect(details).toContain('Scheduled by pub@example.com for Dec 1, 2026, 9:00 AM Pacific time.');
    // Asked first: the button that cancels is not there until the first is pressed.
    expect(buttons(publisherView)).toContain('Cancel the schedule…');
    expect(buttons(publisherView)).not.toContain('Yes, cancel the schedule');
    const running = await renderToDom(
      <ChangeActions
        change={change({ ...pending, schedule: { ...pending.schedule!, state: 'running' } })}
        me={member('pub@example.com', ['publisher'])}
        reload={noReload}
      />,
      '/',
    );
    expect(buttons(running)).not.toContain('Cancel the schedule…');
    const reviewerView = await renderToDom(
      <ChangeActions change={pending} me={member('maya@example.com', ['reviewer'])} reload={noReload} />,
      '/',
    );
    expect(buttons(reviewerView)).not.toContain('Cancel the schedule…');
    // A failed one: a publisher may dismiss it (it keeps /healthz degraded until then).
    const failed = { ...pending.schedule!, state: 'failed' as const, error: 'a link is broken' };
    const failedView = await renderToDom(
      <ChangeActions
        change={change({ ...pending, schedule: failed })}
        me={member('pub@example.com', ['publisher'])}
        reload={noReload}
      />,
      '/',
    );
    expect(buttons(failedView)).toContain('Dismiss the failed schedule');
    expect(buttons(failedView)).not.toContain('Cancel the schedule…');
  });
});

describe('the review of a document', () => {
  it('names each changed field in words, marks its claim, shows before and after', async () => {
    const body = await renderToDom(
      <DocumentChanges
        id="c1"
        onComment={noReload}
        document={{
          path: 'pages/treatment/fentanyl-addiction.json',
          created: false,
          deleted: false,
          summary: null,
          changes: [
            {
              pointer: '/blocks/4/items/0/duration',
              field: 'Timeline (block 5) › Items, item 1 › Duration',
              change: 'changed',
              kinds: ['clinical'],
              before: '7-14 days',
              after: '10-14 days',
            },
            {
              pointer: '/title',
              field: 'Title',
              change: 'changed',
              kinds: ['other'],
              before: 'A',
              after: 'B',
            },
          ],
        }}
      />,
      '/',
    );
    const text = visibleText(body);
    expect(text).toContain(
      'Timeline (block 5) › Items, item 1 › Duration Changed medical claims: needs a clinical reviewer',
    );
    expect(visibleText(body.querySelector('del') as Element)).toBe('7-14 days');
    expect(visibleText(body.querySelector('ins') as Element)).toBe('10-14 days');
    expect(text).not.toContain('/blocks/');
    // A field of no claim is not marked as one.
    expect(text).toMatch(/Title Changed Before/);
    expect(body.querySelectorAll('button').length).toBe(2);
    const file = encodeURIComponent('pages/treatment/fentanyl-addiction.json');
    expect(
      body.querySelector(`a[href="/staff/api/content/changes/c1/render?file=${file}&side=before"]`)
        ?.textContent,
    ).toBe('The page before (live now)');
    expect(
      body.querySelector(`a[href="/staff/api/content/changes/c1/render?file=${file}&side=after"]`)
        ?.textContent,
    ).toBe('The page after (with this change set)');
  });
});
