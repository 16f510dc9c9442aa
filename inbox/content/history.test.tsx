// A page's version as staff read it: who published it, whose change set, who reviewed it; restore for editors and
// roll back for publishers, never on the live version.
import { describe, expect, it } from 'vitest';
import type { PageVersion } from '../../contracts/content-api.ts';
import { renderToDom, visibleText } from '../../tests/helpers/render-to-dom.tsx';
import { VersionCard } from './History.tsx';

const version: PageVersion = {
  release: 2,
  at: '2026-11-28T05:00:00.000Z',
  publishedBy: 'pub@example.org',
  message: 'change set c1: Detox duration',
  exists: true,
  change: { id: 'c1', title: 'Detox duration', author: 'ed@example.org' },
  reviewers: [
    { by: 'maya@example.org', name: 'Maya Chen', credential: 'MD', at: '2026-11-28T04:50:00.000Z' },
  ],
  live: false,
};
const FILE = 'pages/treatment/fentanyl-addiction.json';
const buttons = (body: HTMLElement) =>
  [...body.querySelectorAll('button')].map((button) => visibleText(button));

describe('a version in the page history', () => {
  it('names publisher, author and reviewers, and links to the page as visitors saw it', async () => {
    const body = await renderToDom(
      <VersionCard version={version} file={FILE} me={{ roles: ['editor'] }} onRolledBack={() => undefined} />,
      '/',
    );
    const text = visibleText(body);
    expect(text).toContain('by pub@example.org');
    expect(text).toContain(
      'From the change set “Detox duration” by ed@example.org, reviewed by Maya Chen, MD.',
    );
    expect(
      body.querySelector(`a[href="/staff/api/content/history/2/view?file=${encodeURIComponent(FILE)}"]`),
    ).not.toBeNull();
    expect(buttons(body)).toEqual(['Restore this version']);
  });

  it('offers a publisher the rollback, and nobody either act on the live version', async () => {
    const publisher = await renderToDom(
      <VersionCard
        version={version}
        file={FILE}
        me={{ roles: ['publisher'] }}
        onRolledBack={() => undefined}
      />,
      '/',
    );
    expect(buttons(publisher)).toEqual(['Roll the site back…']);
    const live = await renderToDom(
      <VersionCard
        version={{ ...version, live: true }}
        file={FILE}
        me={{ roles: ['editor', 'publisher'] }}
        onRolledBack={() => undefined}
      />,
      '/',
    );
    expect(buttons(live)).toEqual([]);
    expect(visibleText(live)).toContain('Live now');
  });
});
