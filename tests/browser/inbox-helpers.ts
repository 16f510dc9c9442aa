// What the inbox's browser tests share: an invitation from the staff CLI, a passkey-capable browser context
// (Chromium's virtual authenticator, through the DevTools protocol's WebAuthn domain), and enrolment through the app.
import type { BrowserContext, Page } from 'playwright-core';
import { ROOT } from '../../content/paths.ts';
import { runStaffCli } from '../../server/cli/staff.ts';
import { runCli } from '../helpers/run-cli.ts';
import type { RunningSite } from '../helpers/site-under-test.ts';

/**
 * The site's address by name: a passkey belongs to a domain (its relying party id), which an IP address such as
 * 127.0.0.1 can never be, so WebAuthn refuses there; `localhost` is a domain and a secure context.
 */
export const inboxOrigin = (site: RunningSite) => site.url.replace('//127.0.0.1:', '//localhost:');

/** `npm run staff -- invite <email> [--admin]` against the site's database: the enrolment link's `#...` fragment. */
export async function invite(site: RunningSite, email: string, admin = true): Promise<string> {
  const { code, out, err } = await runCli(runStaffCli, ['invite', email, ...(admin ? ['--admin'] : [])], {
    cwd: ROOT,
    env: { ...process.env, LEADS_DB: site.dbFile },
  });
  const link = /\/staff\/enrol(#\S+)/.exec(out);
  if (code !== 0 || !link?.[1]) throw new Error(`no enrolment link (exit ${code}): ${out}${err}`);
  return link[1];
}

/**
 * A platform authenticator with user verification, as a phone's has: passkeys are created and used without a prompt.
 * `usb`: a security key with a PIN instead (Chromium takes one platform authenticator only: a second device is a key).
 */
export async function addPasskeyDevice(
  context: BrowserContext,
  page: Page,
  transport: 'internal' | 'usb' = 'internal',
): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport,
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
}

/** Opens the invitation in the app and creates the passkey; resolves on the list, signed in. */
export async function enrol(page: Page, site: RunningSite, fragment: string): Promise<void> {
  await page.goto(`${inboxOrigin(site)}/staff/enrol${fragment}`);
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await page.getByRole('heading', { name: 'Leads' }).waitFor();
}

/** The consultation form as the site's enhanced form sends it; the new lead's id. */
export async function sendConsultation(site: RunningSite, body: Record<string, string>): Promise<string> {
  const sent = await fetch(`${site.url}/api/forms/consultation`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: site.url },
    body: JSON.stringify(body),
  });
  if (sent.status !== 201) throw new Error(`the form answered ${sent.status}: ${await sent.text()}`);
  return ((await sent.json()) as { id: string }).id;
}
