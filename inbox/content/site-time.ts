// A schedule's time on the site's clock (SITE_TIMEZONE, sent with the change set), not the browser's: a publisher in
// Berlin who means "9:00 AM" for a California clinic's page means 9:00 AM Pacific time. The API still takes and gives
// an instant (ISO 8601); these turn a wall-clock time in a zone into one and back, with Intl alone (no time zone
// library: the browser's Intl knows every IANA zone, and its offsets are the ones the server's Intl uses).

/** `YYYY-MM-DDTHH:mm`, as a datetime-local input gives and takes it. */
const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

const formats = new Map<string, Intl.DateTimeFormat>();
/** The parts of an instant on the zone's clock, with a 24-hour clock. */
function partsIn(timeZone: string, at: number): Record<string, number> {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(at))
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return parts;
}

/** How far the zone's clock is ahead of UTC at `at`, in milliseconds (negative west of Greenwich). */
function offsetAt(timeZone: string, at: number): number {
  const p = partsIn(timeZone, at);
  const asUtc = Date.UTC(
    p.year ?? 0,
    (p.month ?? 1) - 1,
    p.day ?? 1,
    p.hour ?? 0,
    p.minute ?? 0,
    p.second ?? 0,
  );
  return asUtc - (at - (at % 1000));
}

/** The wall-clock time an instant shows in the zone, as a datetime-local input takes it. */
export function wallTimeOf(at: number, timeZone: string): string {
  const p = partsIn(timeZone, at);
  const two = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
  return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}`;
}

export type WallTimeInstant = { ok: true; at: number } | { ok: false; problem: 'format' | 'skipped' };

/**
 * The instant a wall-clock time names in the zone. A time the clocks skip (the spring change: 2:30 AM on that day does
 * not happen in Pacific time) is refused rather than moved; of a time that happens twice (the fall change), the first.
 */
export function instantOf(wallTime: string, timeZone: string): WallTimeInstant {
  const match = WALL_TIME.exec(wallTime);
  if (!match) return { ok: false, problem: 'format' };
  const [, year, month, day, hour, minute] = match.map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  // Two guesses: the offset a few hours either side of the time; the earlier instant that reads back right wins.
  const candidates = [offsetAt(timeZone, asUtc - 12 * 3_600_000), offsetAt(timeZone, asUtc + 12 * 3_600_000)]
    .map((offset) => asUtc - offset)
    .sort((a, b) => a - b);
  const at = candidates.find((candidate) => wallTimeOf(candidate, timeZone) === wallTime);
  return at === undefined ? { ok: false, problem: 'skipped' } : { ok: true, at };
}

/** "Pacific time", "Central European time": the zone's generic name, as a sentence says it. */
export function zoneName(timeZone: string, at = Date.now()): string {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longGeneric' })
      .formatToParts(at)
      .find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
  return name.replace(/ Time$/, ' time');
}

/** "Dec 1, 2026, 9:00 AM Pacific time": an instant on the zone's clock, the zone named. */
export function timeIn(iso: string | number, timeZone: string): string {
  const at = typeof iso === 'number' ? iso : Date.parse(iso);
  const shown = new Intl.DateTimeFormat('en-US', {
    timeZone,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(at);
  return `${shown} ${zoneName(timeZone, at)}`;
}
