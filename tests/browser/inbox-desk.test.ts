// The admissions desk as two members use it at once, one on a phone and one at a desk (each signed in with a passkey
// of a virtual authenticator): a lead arrives and both queues show it with its wait ticking; one says "I'm calling" and
// the other sees it within a second; a call's outcome, "asked to call back in 10 minutes", moves its due time on both;
// the tab title counts what needs a call; and axe finds nothing on the desk's screens at either width. Then a callback
// set a few seconds ahead (the API takes any future time: the short promise that stands in for a clock) comes due:
// the lead turns overdue on both lists (red, on top), the title counts it, and the chat gets the escalation at the
// local webhook receiver, without a word the person wrote.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, PHONE, DESKTOP } from '../helpers/browser.ts';
import { signedInMember } from '../helpers/inbox-member.ts';
import { startSite, type RunningSite } from '../helpers/site-under-test.ts';
import { axeViolations, describeViolations } from '../quality/accessibility.ts';
import { sendConsultation } from './inbox-helpers.ts';

let site: RunningSite;
let browser: Browser;
beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

const lead = (firstName: string) => ({
  firstName,
  lastName: 'Moreau',
  phone: '(555) 017-4420',
  email: `${firstName.toLowerCase()}@example.net`,
  urgency: 'urgent',
  message: 'Please call',
  source: '/',
});

/** The title follows a refresh after each event, and the desk's 5 s tick for what falls due: a tick and a margin. */
const TITLE = { timeout: 8_000 };

const member = async (email: string, device: typeof PHONE): Promise<Page> =>
  (await signedInMember(browser, site, email, { device })).page;

describe('two members at the desk', () => {
  it('see a lead arrive, one claims it, the other sees that within a second, and a callback moves it on both', async () => {
    const phone = await member('phone.worker@example.org', PHONE);
    const desk = await member('desk.worker@example.org', DESKTOP);
    await sendConsultation(site, lead('Amelie'));
    const name = { name: 'Amelie Moreau' };
    for (const page of [phone, desk]) {
      await page
        .getByRole('link', name)
        .waitFor({ timeout: 8000 })
        .catch(async (error: unknown) => {
          await page.screenshot({ path: '/tmp/desk-fail.png' });
          throw error;
        });
      const card = page.getByRole('listitem').filter({ has: page.getByRole('link', name) });
      await expect(card.innerText()).resolves.toMatch(/waiting \d+ min, due in 1[45] min/);
      await expect.poll(() => page.title(), TITLE).toBe('(1) Admissions inbox');
    }

    const phoneCard = phone.getByRole('listitem').filter({ has: phone.getByRole('link', name) });
    const deskCard = desk.getByRole('listitem').filter({ has: desk.getByRole('link', name) });
    const claimedAt = Date.now();
    await phoneCard.getByRole('button', { name: "I'm calling" }).click();
    await deskCard.getByText('phone.worker is calling').waitFor({ timeout: 1000 });
    expect(Date.now() - claimedAt).toBeLessThan(1500);
    await phoneCard.getByRole('button', { name: 'Release' }).waitFor();

    // The call: asked to call back in 10 minutes (the form's default time), saved, and the due time moves on both.
    await phone.getByRole('link', name).click();
    await phone
      .getByRole('combobox', { name: 'What came of it' })
      .selectOption({ label: 'Asked to call back' });
    await phone.getByRole('button', { name: 'Save outcome' }).click();
    await phone.getByRole('status').filter({ hasText: 'Saved: Asked to call back.' }).waitFor();
    await phone.getByText(/callback due in (9|10) min/).waitFor();
    // "Saved" is about what was sent: the next edit takes it away.
    await phone.getByRole('combobox', { name: 'What came of it' }).selectOption({ label: 'No answer' });
    await expect.poll(() => phone.getByText('Saved: Asked to call back.').count()).toBe(0);
    await deskCard.getByText(/callback due in (9|10) min/).waitFor({ timeout: 2000 });
    await expect(deskCard.innerText()).resolves.toContain('1 call');

    for (const page of [phone, desk]) expect(describeViolations(await axeViolations(page))).toEqual([]);

    // Another lead; the desk worker logs "asked to call back" a few seconds ahead, and leaves it unclaimed.
    await phone.getByRole('link', { name: 'All leads' }).click();
    const brunoId = await sendConsultation(site, lead('Bruno'));
    const bruno = { name: 'Bruno Moreau' };
    for (const page of [phone, desk]) {
      await page.getByRole('link', bruno).waitFor({ timeout: 8000 });
      await expect.poll(() => page.title(), TITLE).toBe('(1) Admissions inbox');
    }
    const dueAt = new Date(Date.now() + 12_000).toISOString();
    const logged = await desk.evaluate(
      async ({ id, callbackAt }) =>
        (
          await fetch(`/staff/api/leads/${id}/calls`, {
            method: 'POST',
            headers: { 'X-Staff-Request': '1', 'Content-Type': 'application/json' },
            body: JSON.stringify({ outcome: 'callback', callbackAt }),
          })
        ).status,
      { id: brunoId, callbackAt: dueAt },
    );
    expect(logged).toBe(200);
    // Called and due later: nothing needs a call now, on either.
    for (const page of [phone, desk]) await expect.poll(() => page.title(), TITLE).toBe('Admissions inbox');
    for (const page of [phone, desk]) {
      const card = page.getByRole('listitem').filter({ has: page.getByRole('link', bruno) });
      // At its due time (the cards tick every 5 s): overdue, red, on top, and counted in the title.
      await expect.poll(() => card.getAttribute('data-overdue'), { timeout: 20_000 }).toBe('true');
      await expect(card.innerText()).resolves.toMatch(/callback overdue \d+ min/);
      const first = page.locator('.inbox-leads > li').first();
      await expect(first.getByRole('link', bruno).count()).resolves.toBe(1);
      await expect
        .poll(() => first.evaluate((li) => getComputedStyle(li).borderInlineStartColor))
        .toMatch(/^rgb\((2[0-5]\d|1[5-9]\d), \d{1,2}, \d{1,2}\)$/);
      await expect.poll(() => page.title(), TITLE).toBe('(1) Admissions inbox');
    }
    // The escalation: the alert worker's sweep (every 15 s) tells the chat, with the form and the delay only.
    await expect
      .poll(
        () => site.receiver.messages.find((m) => m.text.includes(brunoId) && / past /.test(m.text))?.text,
        {
          timeout: 30_000,
          interval: 500,
        },
      )
      .toMatch(
        /^A free consultation request is \d+ min past the callback time it was promised\. No one has claimed it\./i,
      );
    const escalation = JSON.stringify(site.receiver.messages.filter((m) => m.text.includes(brunoId)));
    for (const personal of ['Bruno', 'Moreau', '(555) 017', '017-4420', 'bruno@example.net', 'Please call'])
      expect(escalation).not.toContain(personal);
  }, 150_000);
});
