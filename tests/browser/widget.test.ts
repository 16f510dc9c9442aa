// The floating widget and its two forms, with and without JavaScript, against the real server and chat receiver.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { promiseText } from '../../core/promise.ts';
import { openPage, PHONE, visit } from '../helpers/browser.ts';
import { siteUnderTest } from '../helpers/site-under-test.ts';
import site from '../../site/site.json' with { type: 'json' };
import insurance from '../../site/forms/widget-insurance.json' with { type: 'json' };
import consultation from '../../site/forms/consultation.json' with { type: 'json' };

const t = siteUnderTest();
const person = { firstName: 'Sam', lastName: 'Okafor', phone: '(555) 010-0162', email: 'sam@example.com' };

async function fillContact(page: Page, dialog: string) {
  const scope = page.locator(dialog);
  await scope.getByLabel('First Name').fill(person.firstName);
  await scope.getByLabel('Last Name').fill(person.lastName);
  await scope.getByLabel('Phone Number').fill(person.phone);
  await scope.getByLabel('Email').fill(person.email);
  return scope;
}

const scrollDown = async (page: Page) => {
  await page.evaluate(() => window.scrollTo(0, 800));
  await expect
    .poll(() => page.locator('.floating-widget').getAttribute('data-visible'), { timeout: 5000 })
    .toBe('true');
};

describe('floating widget', () => {
  it('stays hidden until the page is scrolled past 200 px, then shows the phone bar', async () => {
    const { page, context, errors } = await openPage(t.browser, PHONE);
    await visit(page, `${t.site.url}/`);
    const bar = page.locator('.widget-bar');
    await expect(bar.isVisible()).resolves.toBe(false);
    await page.evaluate(() => window.scrollTo(0, 150));
    await page.waitForTimeout(100);
    await expect(page.locator('.floating-widget').getAttribute('data-visible')).resolves.toBe('false');
    await scrollDown(page);
    await expect(bar.getByRole('button', { name: site.widget.verifyLabel }).isVisible()).resolves.toBe(true);
    await expect(bar.getByRole('button', { name: site.widget.consultationLabel }).isVisible()).resolves.toBe(
      true,
    );
    await expect(page.locator('.widget-round').isVisible()).resolves.toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('moves nothing on the page while it loads, wakes up and shows the widget', async () => {
    for (const [options, path] of [
      [PHONE, '/'],
      [PHONE, '/treatment/fentanyl-addiction'],
      [{}, '/services/medical-detox'],
    ] as const) {
      const { page, context, errors } = await openPage(t.browser, options);
      // Every layout shift from the first byte on, as the browser reports them, with what moved.
      await page.addInitScript(() => {
        const shifts: { value: number; moved: string[] }[] = [];
        (window as unknown as { shifts: typeof shifts }).shifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            sources?: { node?: Node | null }[];
          })[])
            shifts.push({
              value: entry.value,
              moved: (entry.sources ?? []).map((source) =>
                source.node instanceof Element ? source.node.outerHTML.slice(0, 80) : String(source.node),
              ),
            });
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await visit(page, `${t.site.url}${path}`);
      await scrollDown(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(500);
      const shifts = await page.evaluate(() => (window as unknown as { shifts: unknown[] }).shifts);
      expect(shifts, path).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('on a phone, schedules a consultation in a modal dialog: stored, alerted without the message, closed', async () => {
    const before = (await t.site.leads()).length;
    const { page, context, errors } = await openPage(t.browser, PHONE);
    await visit(page, `${t.site.url}/services/medical-detox`);
    await scrollDown(page);
    await page.locator('.widget-bar').getByRole('button', { name: site.widget.consultationLabel }).click();
    const dialog = page.getByRole('dialog', { name: consultation.title });
    await dialog.waitFor();
    expect(await page.locator('#consultation-dialog').evaluate((d) => d.matches(':modal'))).toBe(true);
    // The promise as a visitor reads it: its time in words from promiseMinutes ("within 15 minutes").
    const promise = promiseText(consultation.promise, consultation.promiseMinutes);
    expect(promise).toContain('within 15 minutes');
    await expect(dialog.getByText(promise).count()).resolves.toBe(1);
    const scope = await fillContact(page, '#consultation-dialog');
    await scope.getByLabel('Who is this for?').selectOption('family');
    await scope.getByLabel('How soon do you need help?').selectOption('immediate');
    await scope.getByLabel('Message (optional)').fill('My brother has been drinking heavily for months.');
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/forms/**', async (route) => {
      await held;
      await route.continue();
    });
    await scope.getByRole('button', { name: consultation.submitLabel }).click();
    await expect(
      scope.getByRole('button', { name: consultation.submittingLabel }).isDisabled(),
    ).resolves.toBe(true);
    release();
    await page.getByText(consultation.success.text).waitFor();
    // It sinks away before it closes (renderer/motion/).
    await expect
      .poll(() => page.locator('#consultation-dialog').evaluate((d) => (d as HTMLDialogElement).open))
      .toBe(false);

    const leads = await t.site.leads();
    expect(leads).toHaveLength(before + 1);
    const lead = leads.at(-1)!;
    expect(lead.formId).toBe('consultation');
    expect(lead.data).toMatchObject({ ...person, urgency: 'immediate' });
    expect(lead.source).toBe('/services/medical-detox');
    await expect
      .poll(() => JSON.stringify(t.site.receiver.messages).includes(lead.id), { timeout: 10_000 })
      .toBe(true);
    const alert = JSON.stringify(t.site.receiver.messages.find((m) => JSON.stringify(m).includes(lead.id)));
    // How urgent and where to open it; nothing the person typed or chose besides the urgency.
    expect(alert).toContain('Immediate: need help today');
    expect(alert).toContain(`/staff/leads/${lead.id}`);
    for (const value of [...Object.values(person), '0100162', 'A family member', 'drinking heavily'])
      expect(alert).not.toContain(value);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a wide screen, offers the phone and a consultation on hover, and verifies insurance from the round button', async () => {
    const before = (await t.site.leads()).length;
    const { page, context, errors } = await openPage(t.browser);
    await visit(page, `${t.site.url}/`);
    await scrollDown(page);
    await page.locator('.widget-round-button').hover();
    const menu = page.locator('.widget-menu');
    await expect(
      menu.getByRole('link', { name: /Call \(555\) 010-0123/ }).getAttribute('href'),
    ).resolves.toBe(`tel:${site.phones.primary.tel}`);
    await expect(menu.getByRole('button', { name: site.widget.consultationLabel }).isVisible()).resolves.toBe(
      true,
    );
    await page.getByRole('button', { name: site.widget.verifyLabel }).last().click();
    await page.getByRole('dialog', { name: insurance.title }).waitFor();
    const scope = await fillContact(page, '#widget-insurance-dialog');
    await scope.getByLabel('Insurance Provider').selectOption({ label: 'Tricare' });
    await scope.getByLabel('Member ID').fill('TRI-55120');
    await scope.getByRole('button', { name: insurance.submitLabel }).click();
    await page.getByText(insurance.success.text).waitFor();
    await expect(page.getByText(insurance.success.title).count()).resolves.toBeGreaterThan(0);
    // It sinks away before it closes (renderer/motion/).
    await expect
      .poll(() => page.locator('#widget-insurance-dialog').evaluate((d) => (d as HTMLDialogElement).open))
      .toBe(false);
    const lead = (await t.site.leads()).at(-1)!;
    expect(await t.site.leads()).toHaveLength(before + 1);
    expect(lead.formId).toBe('widget-insurance');
    // What the person typed, stored under the form's own field names.
    expect(lead.data).toEqual({ ...person, insuranceProvider: 'tricare', memberID: 'TRI-55120' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a wide screen, gives keyboard focus back to the round button when a dialog opened from its menu closes', async () => {
    const { page, context } = await openPage(t.browser);
    await visit(page, `${t.site.url}/`);
    await scrollDown(page);
    await page.locator('.widget-round-button').focus();
    await page.keyboard.press('Shift+Tab');
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());
    await expect(focused()).resolves.toBe(site.widget.consultationLabel);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: consultation.title }).waitFor();
    await page.keyboard.press('Escape');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.className))
      .toContain('widget-round-button');
    await context.close();
  });

  it('keeps the dialog open with what was typed when sending fails', async () => {
    const { page, context } = await openPage(t.browser, PHONE);
    await visit(page, `${t.site.url}/`);
    await scrollDown(page);
    await page.route('**/api/forms/**', (route) => route.fulfill({ status: 503, body: 'unavailable' }));
    await page.locator('.widget-bar').getByRole('button', { name: site.widget.consultationLabel }).click();
    const scope = await fillContact(page, '#consultation-dialog');
    await scope.getByRole('button', { name: consultation.submitLabel }).click();
    // Inside the modal dialog, where a screen reader hears it (a toast outside would be inert), with the number to
    // call instead; the button keeps the focus for another try.
    const alert = scope.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain(consultation.failure.text);
    await expect(alert.textContent()).resolves.toContain(site.phones.primary.display);
    await expect(page.evaluate(() => document.activeElement?.getAttribute('type'))).resolves.toBe('submit');
    await expect(
      page.locator('#consultation-dialog').evaluate((d) => (d as HTMLDialogElement).open),
    ).resolves.toBe(true);
    await expect(scope.getByLabel('First Name').inputValue()).resolves.toBe(person.firstName);
    await context.close();
  });

  it.each([
    ['consultation', site.widget.consultationLabel, consultation],
    ['widget-insurance', site.widget.verifyLabel, insurance],
  ] as const)(
    'works without JavaScript: the %s form opens and posts to a confirmation page',
    async (formId, label, form) => {
      const before = (await t.site.leads()).length;
      const { page, context } = await openPage(t.browser, { ...PHONE, javaScriptEnabled: false });
      await page.goto(`${t.site.url}/`);
      const button = page.locator('.widget-bar').getByRole('button', { name: label });
      // Nothing can measure the scroll, but CSS reveals the bar past the same threshold as the script does, so it
      // covers nothing of the first screen (such as the emergency page's Call 911).
      await expect(button.isVisible()).resolves.toBe(false);
      await page.mouse.wheel(0, 150);
      await page.waitForTimeout(200);
      await expect(button.isVisible()).resolves.toBe(false);
      await page.mouse.wheel(0, 400);
      await button.click();
      const scope = await fillContact(page, `#${formId}-dialog`);
      if (formId === 'widget-insurance') {
        await scope.getByLabel('Insurance Provider').selectOption('aetna');
        await scope.getByLabel('Member ID').fill('AET-100');
      }
      await scope.getByRole('button', { name: form.submitLabel }).click();
      await page.getByText(form.success.text).waitFor();
      expect(await t.site.leads()).toHaveLength(before + 1);
      const lead = (await t.site.leads()).at(-1);
      expect(lead?.formId).toBe(formId);
      expect(lead?.data).toMatchObject(
        formId === 'widget-insurance'
          ? { ...person, insuranceProvider: 'aetna', memberID: 'AET-100' }
          : person,
      );
      await context.close();
    },
  );
});
