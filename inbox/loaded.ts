// What a route's loader hands its screen without holding up the navigation: the request's promise, settled into the
// answer or what to tell the staff member, so a screen shows its own loading and error states in place.
export type Loaded<T> = { ok: true; value: T } | { ok: false; problem: string };

export const settle = <T>(request: Promise<T>): Promise<Loaded<T>> =>
  request.then(
    (value): Loaded<T> => ({ ok: true, value }),
    (error: unknown): Loaded<T> => ({
      ok: false,
      problem: error instanceof Error ? error.message : String(error),
    }),
  );
