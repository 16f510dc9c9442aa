// What makes a new lead, or one passing its promise, impossible to miss: a short tone (on unless this person turned it
// off on this device), a browser notification (only with permission, and naming only the form and its urgency: a
// lock screen shows it to anyone), and the tab title's count of open leads overdue or new.
import type { ListedLead } from '../../contracts/staff-api.ts';

const SOUND_KEY = 'inbox-sound';
let baseTitle = 'Admissions inbox';

export const soundOn = (): boolean => localStorage.getItem(SOUND_KEY) !== 'off';
export const setSoundOn = (on: boolean): void => localStorage.setItem(SOUND_KEY, on ? 'on' : 'off');

let audio: AudioContext | undefined;

/** Two short rising tones: made here (WebAudio), so there is no sound file to load or to fail. */
export function chime(): void {
  if (!soundOn()) return;
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime;
    for (const [offset, frequency] of [
      [0, 660],
      [0.18, 880],
    ] as const) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.2, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.001, start + offset + 0.16);
      tone.connect(gain).connect(audio.destination);
      tone.start(start + offset);
      tone.stop(start + offset + 0.17);
    }
  } catch {
    // No audio here (a browser without WebAudio, or one that blocks it before a tap): the title and highlight remain.
  }
}

/** Asks for notifications at a tap (browsers refuse to ask otherwise); true when they are allowed. */
export async function allowNotifications(): Promise<boolean> {
  if (!('Notification' in window)) return false;
  if (Notification.permission === 'granted') return true;
  return (await Notification.requestPermission()) === 'granted';
}

/** "New request: Free consultation request (Immediate: need help today)": never a name or anything the person wrote. */
export function notify(title: string, lead: Pick<ListedLead, 'formName' | 'urgency'>): void {
  if (!('Notification' in window) || Notification.permission !== 'granted') return;
  try {
    new Notification(title, {
      body: lead.urgency ? `${lead.formName} (${lead.urgency})` : lead.formName,
      tag: 'admissions-inbox',
    });
  } catch {
    // Some browsers allow notifications only from a service worker: the tone and the title still tell.
  }
}

/** Open leads needing a call now: overdue, or new (not yet called). */
export const needingCall = (leads: readonly ListedLead[], now: number): number =>
  leads.filter((lead) => lead.due && (Date.parse(lead.dueAt) <= now || lead.status === 'new')).length;

let titleCount = 0;
let titleState: 'signed-out' | 'reconnecting' | undefined;

/** The title as it stands: a tab in the background says it is not current, and never counts what it cannot know. */
function writeTitle() {
  if (titleState === 'signed-out') document.title = `Signed out: ${baseTitle}`;
  else if (titleState === 'reconnecting') document.title = `Reconnecting: ${baseTitle}`;
  else document.title = titleCount > 0 ? `(${titleCount}) ${baseTitle}` : baseTitle;
}

/** The app's name in the tab: the admissions inbox, or the site's content for editorial staff (app-name.ts). */
export function setTitleBase(name: string): void {
  baseTitle = name;
  writeTitle();
}

export function setTitleCount(count: number): void {
  titleCount = count;
  writeTitle();
}

export function setTitleState(state: 'signed-out' | 'reconnecting' | undefined): void {
  titleState = state;
  writeTitle();
}
