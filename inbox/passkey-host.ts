// A passkey belongs to a domain name: browsers refuse WebAuthn at an IP address (Chromium at 127.0.0.1 too), so the
// sign-in and enrolment screens say where to go instead, before the staff member tries.

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** What to tell someone who opened the inbox at `address` (the page's location); undefined at a domain name. */
export function passkeyHostProblem(address: Pick<URL, 'hostname' | 'port'>): string | undefined {
  // An IPv6 host name keeps its brackets, [::1].
  if (!IPV4.test(address.hostname) && !address.hostname.startsWith('[')) return undefined;
  const local = `http://localhost${address.port ? `:${address.port}` : ''}/staff/`;
  return `Passkeys work only at the site's name. Open ${local} on this computer, or the site's address.`;
}
