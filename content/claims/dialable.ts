// The dialable rule: a change that adds, removes or alters a way to reach someone (a tel:, sms: or mailto: target,
// or the {phone} and {email} tokens) is a `contact` change in any field, tagged or not. Emergency numbers are
// links wherever they appear (the validator's emergency-number rule), so they are caught here too.
// Pure and browser-safe.

const DIALABLE = /\b(?:tel|sms|mailto):[^\s)"'\]]+|\{(?:phone|email)\}/gi;

/** The dialable targets in a value, in order: ['tel:911', '{phone}']. */
export function dialableTargets(value: unknown): string[] {
  return typeof value === 'string' ? (value.match(DIALABLE) ?? []).map((t) => t.toLowerCase()) : [];
}

export const hasDialable = (value: unknown) => dialableTargets(value).length > 0;

/** Whether the targets differ between two versions of a value (as a list: a second tel:911 link is a change). */
export const dialableChanged = (before: unknown, after: unknown) =>
  dialableTargets(before).sort().join('\n') !== dialableTargets(after).sort().join('\n');
