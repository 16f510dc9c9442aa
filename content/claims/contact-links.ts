// The contact-link rule: a change that adds, removes or alters a way to reach someone (a tel:, sms: or mailto: target,
// or the {phone} and {email} tokens) is a `contact` change in any field, tagged or not. Emergency numbers are
// links wherever they appear (the validator's emergency-number rule), so they are caught here too.
// Pure and browser-safe.

const CONTACT_LINK = /\b(?:tel|sms|mailto):[^\s)"'\]]+|\{(?:phone|email)\}/gi;

/** The contact targets in a value, in order: ['tel:911', '{phone}']. */
export function contactTargets(value: unknown): string[] {
  return typeof value === 'string' ? (value.match(CONTACT_LINK) ?? []).map((t) => t.toLowerCase()) : [];
}

export const hasContactLink = (value: unknown) => contactTargets(value).length > 0;

/** Whether the targets differ between two versions of a value (as a list: a second tel:911 link is a change). */
export const contactLinkChanged = (before: unknown, after: unknown) =>
  contactTargets(before).sort().join('\n') !== contactTargets(after).sort().join('\n');
