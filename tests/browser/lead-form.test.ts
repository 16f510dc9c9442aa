// The embedded forms, end to end: browser, real server, SQLite, and a local Slack-compatible receiver. The home page's
// #contact offers the consultation request and the insurance check, each in its own card.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, PHONE, visit } from '../helpers/browser.ts';
import { siteUnderTest } from '../helpers/site-under-test.ts';
import form from '../../site/forms/insurance-verification.json' with { type: 'json' };
import consultation from '../../site/forms/consultation.json' with { type: 'json' };

const t = siteUnderTest();
const INSURANCE_CARD = '#contact-insurance-verification';
const CONSULTATION_CARD = '#contact-consultation';

const person = {
  fullName: 'Jordan Rivera',
  phone: '(555) 010-0147',
  dateOfBirth: '1988-04-12',
  memberId: 'ZX9-44817',
};

async function fillForm(page: Page) {
  const scope = page.locator(`${INSURANCE_CARD} form`);
  await scope.getByLabel('Full Name').fill(person.fullName);
  await scope.getByLabel('Phone Number').fill(person.phone);
  await scope.getByLabel('Date of Birth').fill(person.dateOfBirth);
  await scope.getByLabel('Insurance Provider').selectOption({ label: 'Blue Cross Blue Shield' });
  await scope.getByLabel('Member ID').fill(person.memberId);
  return scope;
}

describe('insurance verification form', () => {
  it('shows field errors for an empty submission and sends nothing', async () => {
    const { page, context } = await openPage(t.browser);
    await visit(page, `${t.site.url}/`);
    const scope = page.locator(`${INSURANCE_CARD} form`);
    await scope.getByRole('button', { name: form.submitLabel }).click();
    await expect(scope.getByText(form.requiredMessage).count()).resolves.toBe(5);
    expect(await t.site.leads()).toHaveLength(0);
    await context.close();
  });

  it('stores the lead, alerts the chat without health details, confirms and resets', async () => {
    const { page, context, errors } = await openPage(t.browser);
    await visit(page, `${t.site.url}/`);
    const scope = await fillForm(page);
    // Hold the request so the in-flight state can be seen.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/forms/**', async (route) => {
      await held;
      await route.continue();
    });
    await scope.getByRole('button', { name: form.submitLabel }).click();
    const busy = scope.getByRole('button', { name: form.submittingLabel });
    await expect(busy.isDisabled()).resolves.toBe(true);
    release();
    await page.getByText(form.success.text, { exact: true }).waitFor();
    await expect(page.getByText(form.success.title).count()).resolves.toBeGreaterThan(0);
    await expect(scope.getByLabel('Full Name').inputValue()).resolves.toBe('');

    const leads = await t.site.leads();
    expect(leads).toHaveLength(1);
    expect(leads[0]?.formId).toBe('insurance-verification');
    expect(leads[0]?.data).toMatchObject(person);
    expect(leads[0]?.source).toBe('/');
    await expect.poll(() => t.site.receiver.messages.length, { timeout: 10_000 }).toBe(1);
    const alert = JSON.stringify(t.site.receiver.messages[0]);
    // The chat hears that a request came in and where to open it; nothing the person typed.
    expect(alert).toContain(`/staff/leads/${leads[0]!.id}`);
    for (const value of [...Object.values(person), '0100147', 'Blue Cross'])
      expect(alert).not.toContain(value);
    expect(t.site.output()).not.toContain(person.memberId);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps what was typed and shows the failure message when sending fails', async () => {
    const { page, context } = await openPage(t.browser);
    await visit(page, `${t.site.url}/services/medical-detox`);
    await page.route('**/api/forms/**', (route) => route.fulfill({ status: 503, body: 'unavailable' }));
    const scope = page.locator('form').first();
    await scope.getByLabel('Full Name').fill(person.fullName);
    await scope.getByLabel('Phone Number').fill(person.phone);
    await scope.getByLabel('Date of Birth').fill(person.dateOfBirth);
    await scope.getByLabel('Insurance Provider').selectOption({ label: 'Aetna' });
    await scope.getByLabel('Member ID').fill(person.memberId);
    await scope.getByRole('button', { name: form.submitLabel }).click();
    await page.getByText(form.failure.text).waitFor();
    await expect(page.getByText(form.failure.title).count()).resolves.toBeGreaterThan(0);
    await expect(scope.getByLabel('Full Name').inputValue()).resolves.toBe(person.fullName);
    await expect(scope.getByLabel('Member ID').inputValue()).resolves.toBe(person.memberId);
    await context.close();
  });

  it('works without JavaScript: a plain POST is stored and answered with a confirmation page', async () => {
    const before = (await t.site.leads()).length;
    const { page, context } = await openPage(t.browser, {
      viewport: { width: 390, height: 844 },
      javaScriptEnabled: false,
    });
    await page.goto(`${t.site.url}/`);
    const scope = await fillForm(page);
    await scope.getByRole('button', { name: form.submitLabel }).click();
    await page.getByText(form.success.text, { exact: true }).waitFor();
    expect(await t.site.leads()).toHaveLength(before + 1);
    await context.close();
  });
});

describe('consultation request in #contact, where the Schedule Free Consultation buttons lead', () => {
  it.each([
    ['with JavaScript', true],
    ['without JavaScript', false],
  ])(
    'shows the request form, labelled, on the first screens of a phone, %s',
    async (_how, javaScriptEnabled) => {
      const { page, context, errors } = await openPage(t.browser, { ...PHONE, javaScriptEnabled });
      if (javaScriptEnabled) await visit(page, `${t.site.url}/#contact`);
      else await page.goto(`${t.site.url}/#contact`);
      const contact = page.locator('#contact');
      // The choice is in sight on landing: a link to each form, the consultation first.
      const choices = contact.locator('.form-choices a');
      await expect(choices.allTextContents()).resolves.toEqual([consultation.title, form.title]);
      const first = await choices.first().boundingBox();
      expect(first!.y + first!.height).toBeLessThanOrEqual(PHONE.viewport!.height);

      const card = page.locator(CONSULTATION_CARD);
      await expect(card.getByRole('heading', { name: consultation.title }).isVisible()).resolves.toBe(true);
      for (const field of consultation.fields)
        await expect(card.getByLabel(field.label).isVisible(), field.label).resolves.toBe(true);
      await expect(card.getByRole('button', { name: consultation.submitLabel }).isVisible()).resolves.toBe(
        true,
      );
      // Two forms and the widget's dialogs on one page: every element id once.
      const repeated = await page.evaluate(() => {
        const ids = [...document.querySelectorAll('[id]')].map((element) => element.id);
        return ids.filter((id, i) => ids.indexOf(id) !== i);
      });
      expect(repeated).toEqual([]);

      // The second choice leads to the insurance check.
      await choices.nth(1).click();
      await expect.poll(() => page.evaluate(() => location.hash)).toBe(INSURANCE_CARD);
      await expect(
        page.locator(INSURANCE_CARD).getByRole('heading', { name: form.title }).isVisible(),
      ).resolves.toBe(true);
      const landed = await page.locator(INSURANCE_CARD).boundingBox();
      expect(landed!.y).toBeGreaterThanOrEqual(0);
      expect(landed!.y).toBeLessThan(PHONE.viewport!.height / 2);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('stores a consultation request sent without JavaScript, from the home page', async () => {
    const stored = async () => (await t.site.leads()).filter((lead) => lead.formId === 'consultation');
    const before = (await stored()).length;
    const { page, context } = await openPage(t.browser, { ...PHONE, javaScriptEnabled: false });
    await page.goto(`${t.site.url}/#contact`);
    const card = page.locator(CONSULTATION_CARD);
    await card.getByLabel('First Name').fill('Sam');
    await card.getByLabel('Last Name').fill('Okafor');
    await card.getByLabel('Phone Number').fill('(555) 010-0162');
    await card.getByLabel('Email').fill('sam@example.com');
    await card.getByLabel('How soon do you need help?').selectOption({ label: 'Immediate: need help today' });
    await card.getByRole('button', { name: consultation.submitLabel }).click();
    await page.getByText(consultation.success.text, { exact: true }).waitFor();
    const leads = await stored();
    expect(leads).toHaveLength(before + 1);
    expect(leads.at(-1)?.source).toBe('/');
    await context.close();
  });
});
