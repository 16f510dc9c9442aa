// Small pieces of the editor's page: the notice under the toolbar ("Saved.", "Merged: ...") with a close button that
// says what it does, and what the online editor cannot do yet, in place of the page actions it leaves out.
import { Alert, Text } from '@mantine/core';

export function Notice({ notice, dismiss }: { notice: string | undefined; dismiss: () => void }) {
  return notice ? (
    <Alert withCloseButton closeButtonLabel="Dismiss" onClose={dismiss} role="status" p="xs">
      {notice}
    </Alert>
  ) : null;
}

/** Moving, deleting and adding to menus write several documents at once: not in the online editor yet. */
export function NotOnlineYet() {
  return <Text size="sm">To move or delete a page, or add it to a menu, ask a developer for now.</Text>;
}
