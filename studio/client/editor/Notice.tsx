// The notice under the editor's toolbar ("Saved.", "Merged: ...") with a close button that says what it does.
import { Alert } from '@mantine/core';

export function Notice({ notice, dismiss }: { notice: string | undefined; dismiss: () => void }) {
  return notice ? (
    <Alert withCloseButton closeButtonLabel="Dismiss" onClose={dismiss} role="status" p="xs">
      {notice}
    </Alert>
  ) : null;
}
