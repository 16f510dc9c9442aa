// The one rule for calling a visitor back: a US number, 10 digits, or 11 with the country code 1; spaces, dashes,
// dots, brackets and a leading + are how people type them. The chat alert's link and the inbox's tap-to-call use it.

/** The 10 digits of a US phone number; null for anything else. */
export function usPhoneDigits(phone: string): string | null {
  const digits = phone.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');
  return digits.length === 10 ? digits : null;
}

/** `tel:+15551234567` for a US number; null for anything else. */
export function telHref(phone: string): string | null {
  const digits = usPhoneDigits(phone);
  return digits === null ? null : `tel:+1${digits}`;
}
