// One event stream for the whole app (GET /staff/api/events): `lead` as a lead is stored, `change` as anyone changes
// one. Screens subscribe (the list, a lead's page, the desk's watch); the stream's health is known to all, so a screen
// that is no longer live says so (StaleBanner.tsx) instead of looking current. EventSource reconnects by itself after a
// dropped connection; one the server closed (signed out, or restarting) is opened again a little later.
import { STAFF_API_PATH, type LeadStoredEvent } from '../../contracts/staff-api.ts';

export type StreamHealth = { state: 'live' | 'reconnecting'; since: number; lastUpdate: number };

/** How long the stream may be down before the screen says it is not live. */
export const STALE_AFTER_MS = 10_000;
const REOPEN_MS = [1_000, 5_000, 15_000, 30_000];

type Listener = { onLead?: (id: string) => void; onChange?: (id: string) => void };
const listeners = new Set<Listener>();
const healthListeners = new Set<(health: StreamHealth) => void>();
let health: StreamHealth = { state: 'live', since: Date.now(), lastUpdate: Date.now() };
let source: EventSource | undefined;
let reopen: ReturnType<typeof setTimeout> | undefined;
let stale: ReturnType<typeof setTimeout> | undefined;
let failures = 0;
let lastEventAt = 0;
/** Signed out under an open screen: the stream stays shut (every reopening would be refused) until `resume`. */
let halted = false;

/**
 * Whether a `lead` or `change` came in the last `ms`: a screen that subscribes after loading its data asks again, since
 * it may have missed one in between (the stream is the app's, opened before the screen).
 */
export const eventWithin = (ms: number): boolean => Date.now() - lastEventAt <= ms;

function setHealth(next: StreamHealth) {
  health = next;
  for (const listener of healthListeners) listener(health);
}

/** Something arrived: the screen is current as of now. */
export function noteUpdate() {
  setHealth({ ...health, lastUpdate: Date.now() });
}

const idOf = (event: Event): string | undefined => {
  try {
    const { id } = JSON.parse((event as MessageEvent<string>).data) as Partial<
      Record<keyof LeadStoredEvent, unknown>
    >;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined; // Not the contract's data: nothing to tell.
  }
};

function lost() {
  // Down for more than a moment: the banner, at once after STALE_AFTER_MS (a blip of a reconnect shows nothing),
  // counted from the first failure since the stream was last open. Every failed retry (the browser's own every few
  // seconds, and ours) reports an error too: restarting the count at each would keep the banner away for good.
  if (stale !== undefined || health.state === 'reconnecting') return;
  stale = setTimeout(() => {
    stale = undefined;
    setHealth({ ...health, state: 'reconnecting', since: Date.now() });
  }, STALE_AFTER_MS);
}

function stopCounting() {
  clearTimeout(stale);
  stale = undefined;
}

function open() {
  source = new EventSource(`${STAFF_API_PATH}/events`, { withCredentials: true });
  source.addEventListener('open', () => {
    failures = 0;
    stopCounting();
    if (health.state !== 'live')
      setHealth({ state: 'live', since: Date.now(), lastUpdate: health.lastUpdate });
  });
  source.addEventListener('lead', (event) => {
    lastEventAt = Date.now();
    const id = idOf(event);
    if (id) for (const listener of listeners) listener.onLead?.(id);
  });
  source.addEventListener('change', (event) => {
    lastEventAt = Date.now();
    const id = idOf(event);
    if (id) for (const listener of listeners) listener.onChange?.(id);
  });
  source.addEventListener('error', () => {
    if (halted) return;
    lost();
    if (source?.readyState !== EventSource.CLOSED) return;
    reopen = setTimeout(open, REOPEN_MS[Math.min(failures, REOPEN_MS.length - 1)]);
    failures += 1;
  });
}

/** Listens to the stream (opened with the first listener, closed after the last); returns the unsubscribe. */
export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  if (!source && !halted) open();
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    clearTimeout(reopen);
    stopCounting();
    source?.close();
    source = undefined;
  };
}

/** The session ended: shut the stream, and keep it shut; the signed-out banner says why (StaleBanner.tsx). */
export function halt(): void {
  halted = true;
  clearTimeout(reopen);
  stopCounting();
  source?.close();
  source = undefined;
}

/** Signed in again: the stream opens for whoever still listens, and counts as live until it fails. */
export function resume(): void {
  if (!halted) return;
  halted = false;
  failures = 0;
  setHealth({ state: 'live', since: Date.now(), lastUpdate: health.lastUpdate });
  if (listeners.size > 0 && !source) open();
}

export function onHealth(listener: (health: StreamHealth) => void): () => void {
  healthListeners.add(listener);
  listener(health);
  return () => void healthListeners.delete(listener);
}
