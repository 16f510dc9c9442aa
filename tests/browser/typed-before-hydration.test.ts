// A visitor on a slow phone types into a form before the page's code has run; hydration must keep every value, the
// focus and the caret, and the submission after it must send and store what was typed. The page's scripts are held
// back until the typing is done, so the values are always typed before hydration, whatever the machine's speed.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openPage, PHONE } from '../helpers/browser.ts';
import { siteUnderTest } from '../helpers/site-under-test.ts';
import { runLeadsCli } from '../../server/cli/leads.ts';
import { WEAK_4G } from '../../scripts/lib/first-interaction.ts';
import insurance from '../../site/forms/insurance-verification.json' with { type: 'json' };
import widgetInsurance from '../../site/forms/widget-insurance.json' with { type: 'json' };
import consultation from '../../site/forms/consultation.json' with { type: 'json' };
import site from '../../site/site.json' with { type: 'json' };

const t = siteUnderTest();
const ROOT = join(import.meta.dirname, '..', '..');

type Entry = { label: string; value: string; kind: 'type' | 'fill' | 'select' };
type Form = { submitLabel: string; success: { text: string } };
type DialogCase = {
  label: string;
  form: Form;
  formId: string;
  entries: Entry[];
  stored: Record<string, string>;
};

/** Opens `path` on a slowed phone whose scripts wait until `release()`; `cpu` is Chromium's CPU slowdown. */
async function slowPhone(path: string, cpu: number) {
  const { page, context, errors } = await openPage(t.browser, PHONE);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', WEAK_4G);
  if (cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(`${t.site.url}${path}`, { waitUntil: 'load' });
  return { page, context, errors, release };
}

/** Types as a visitor does: a tap on the field, then key presses (a date and a choice are set as pickers set them). */
async function enter(scope: Locator, entries: readonly Entry[]) {
  for (const { label, value, kind } of entries) {
    const field = scope.getByLabel(label);
    await field.tap();
    if (kind === 'select') await field.selectOption({ label: value });
    else if (kind === 'fill') await field.fill(value);
    else await field.pressSequentially(value);
  }
}

const hydrated = (page: Page) => page.locator('html[data-hydrated]').count();

async function storedLeads(formId: string): Promise<Record<string, string>[]> {
  let out = '';
  const code = await runLeadsCli(['list', '--json'], {
    env: { LEADS_DB: t.site.dbFile },
    cwd: ROOT,
    out: (text) => (out += text),
    err: (text) => (out += text),
  });
  expect(code, out).toBe(0);
  return out
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, string>)
    .filter((lead) => lead.formId === formId);
}

/**
 * Everything after the typing: the page wakes and hydrates, every value, the focus and the caret are where the visitor
 * left them, and a submission stores exactly what was typed.
 */
async function expectKeptAndSent(
  page: Page,
  scope: Locator,
  release: () => void,
  form: Form,
  formId: string,
  entries: readonly Entry[],
  stored: Record<string, string>,
) {
  // Typed before the page's code ran, or the test proves nothing.
  expect(await hydrated(page)).toBe(0);
  const last = entries.at(-1)!;
  release();
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached', timeout: 30_000 });
  // A render after hydration (any state change) is what used to write the empty initial state over the inputs.
  await page.waitForTimeout(300);
  for (const { label, value, kind } of entries) {
    const field = scope.getByLabel(label);
    if (kind === 'select') await expect(field.locator('option:checked').textContent()).resolves.toBe(value);
    else await expect(field.inputValue(), label).resolves.toBe(value);
  }
  const focus = await page.evaluate(() => {
    const active = document.activeElement as HTMLInputElement | HTMLTextAreaElement | null;
    return { label: active?.labels?.[0]?.textContent ?? '', caret: active?.selectionStart ?? -1 };
  });
  expect(focus.label).toContain(last.label);
  expect(focus.caret).toBe(last.value.length);

  const before = (await storedLeads(formId)).length;
  await scope.getByRole('button', { name: form.submitLabel }).tap();
  await page.getByText(form.success.text).first().waitFor({ timeout: 30_000 });
  const leads = await storedLeads(formId);
  expect(leads).toHaveLength(before + 1);
  expect(leads.at(-1)).toMatchObject(stored);
}

describe.each([
  { cpu: 1, name: 'a weak 4G network' },
  { cpu: 4, name: 'a weak 4G network and 4x CPU slowdown' },
])('what a visitor types before hydration is kept and sent, on $name', ({ cpu }) => {
  it('in the embedded insurance form', async () => {
    const { page, context, errors, release } = await slowPhone('/services/medical-detox', cpu);
    const scope = page
      .locator('form')
      .filter({ has: page.getByLabel('Date of Birth') })
      .first();
    const entries: Entry[] = [
      { label: 'Full Name', value: 'Jane Doe', kind: 'type' },
      { label: 'Phone Number', value: '(555) 010-0199', kind: 'type' },
      { label: 'Date of Birth', value: '1990-02-03', kind: 'fill' },
      { label: 'Insurance Provider', value: 'Cigna', kind: 'select' },
      { label: 'Member ID', value: 'QK7-20931', kind: 'type' },
    ];
    await enter(scope, entries);
    await expectKeptAndSent(page, scope, release, insurance, 'insurance-verification', entries, {
      fullName: 'Jane Doe',
      phone: '(555) 010-0199',
      dateOfBirth: '1990-02-03',
      insuranceProvider: 'cigna',
      memberId: 'QK7-20931',
    });
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each<DialogCase>([
    {
      label: site.widget.verifyLabel,
      form: widgetInsurance,
      formId: 'widget-insurance',
      entries: [
        { label: 'First Name', value: 'Ana', kind: 'type' },
        { label: 'Last Name', value: 'Lopez', kind: 'type' },
        { label: 'Phone Number', value: '555-010-0142', kind: 'type' },
        { label: 'Email', value: 'ana@example.com', kind: 'type' },
        { label: 'Insurance Provider', value: 'Tricare', kind: 'select' },
        { label: 'Member ID', value: 'TR-55012', kind: 'type' },
      ],
      stored: {
        firstName: 'Ana',
        lastName: 'Lopez',
        phone: '555-010-0142',
        email: 'ana@example.com',
        insuranceProvider: 'tricare',
        memberID: 'TR-55012',
      },
    },
    {
      label: site.widget.consultationLabel,
      form: consultation,
      formId: 'consultation',
      entries: [
        { label: 'First Name', value: 'Sam', kind: 'type' },
        { label: 'Last Name', value: 'Reyes', kind: 'type' },
        { label: 'Phone Number', value: '5550100175', kind: 'type' },
        { label: 'Email', value: 'sam@example.com', kind: 'type' },
        { label: 'Who is this for?', value: 'A family member', kind: 'select' },
        { label: 'How soon do you need help?', value: 'Urgent: within 48 hours', kind: 'select' },
        { label: 'Message (optional)', value: 'My brother needs help', kind: 'type' },
      ],
      stored: {
        firstName: 'Sam',
        lastName: 'Reyes',
        phone: '5550100175',
        email: 'sam@example.com',
        concernFor: 'family',
        urgency: 'urgent',
        message: 'My brother needs help',
      },
    },
  ])(
    'in the widget dialog "$label", opened before the code ran',
    async ({ label, form, formId, entries, stored }) => {
      const { page, context, errors, release } = await slowPhone('/services/medical-detox', cpu);
      // The phone's bottom bar shows once the page is scrolled; its buttons open the dialogs as popovers without code.
      await page.evaluate(() => window.scrollBy(0, 600));
      await page.locator('.widget-bar').getByRole('button', { name: label }).tap();
      const dialog = page.locator('dialog:popover-open');
      await dialog.waitFor();
      await enter(dialog, entries);
      await expectKeptAndSent(page, dialog.locator('form'), release, form, formId, entries, stored);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
