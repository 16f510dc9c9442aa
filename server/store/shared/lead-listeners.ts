/**
 * Who hears of each lead stored (the inbox's live list, the alert worker), told alike by both stores: `tell` after the
 * commit, and only for a lead written then.
 */
export function leadListeners() {
  const listeners = new Set<(id: string) => void>();
  return {
    onLeadStored(listener: (id: string) => void): () => void {
      // Wrapped, so the same listener added twice is two subscriptions, each with its own unsubscribe.
      const entry = (id: string) => listener(id);
      listeners.add(entry);
      return () => void listeners.delete(entry);
    },
    tell(id: string): void {
      for (const listener of listeners)
        try {
          listener(id);
        } catch {
          // A listener's fault is its own: the lead is stored, and its visitor is told so.
        }
    },
  };
}
