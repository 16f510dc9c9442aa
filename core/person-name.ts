// The one rule for the name of the person who sent a lead, as the chat alert (with CHAT_ALERT_DETAIL=contact), the
// staff inbox and `npm run leads` show it: a form asks either a full name or a first and a last name.

/** The full-name field, else first and last name, each trimmed; '' when the form asks none or the person left it blank. */
export function personName(data: Readonly<Record<string, string>>): string {
  const pick = (name: string) => (data[name] ?? '').trim();
  return pick('fullName') || [pick('firstName'), pick('lastName')].filter(Boolean).join(' ');
}
