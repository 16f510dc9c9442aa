// A passkey belongs to a domain name: browsers refuse WebAuthn at an IP address (Chromium at 127.0.0.1 too). The server
// answers the inbox only at STAFF_ORIGIN (server/staff/staff-origin.ts), which names a host everywhere but loopback; so
// this shows only where STAFF_ORIGIN is a loopback address (tests without a browser passkey), saying what to set.

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** What to tell someone who opened the inbox at `address` (the page's location); undefined at a domain name. */
export function passkeyHostProblem(address: Pick<URL, 'hostname' | 'port'>): string | undefined {
  // An IPv6 host name keeps its brackets, [::1].
  if (!IPV4.test(address.hostname) && !address.hostname.startsWith('[')) return undefined;
  const local = `http://localhost${address.port ? `:${address.port}` : ''}`;
  return `Passkeys work only at a name, never at an IP address. Start the server with STAFF_ORIGIN=${local} and open ${local}/staff/ on this computer.`;
}
