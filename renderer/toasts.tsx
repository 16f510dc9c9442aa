// Toasts load on demand: the notification system is only needed once someone sends a form, so it stays out of
// every page's first load. Starting to fill a form fetches it ahead of time.
import { lazy, Suspense, useSyncExternalStore } from 'react';

export type Toast = { title: string; message: string; color: 'teal' | 'red' };

const loadNotifications = () => import('./toast-area.ts');
const ToastArea = lazy(async () => {
  const { Notifications } = await loadNotifications();
  return { default: () => <Notifications position="top-right" zIndex={1000} /> };
});

let wanted = false;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Mounts the toast area once the first toast is asked for (it follows the light, dark or system scheme). */
export function Toasts() {
  const show = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
  return show ? (
    <Suspense fallback={null}>
      <ToastArea />
    </Suspense>
  ) : null;
}

export function prefetchToasts(): void {
  void loadNotifications();
}

export async function showToast(toast: Toast): Promise<void> {
  if (!wanted) {
    wanted = true;
    listeners.forEach((listener) => listener());
  }
  const { notifications } = await loadNotifications();
  notifications.show(toast);
}
