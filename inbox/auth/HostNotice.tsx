// Shown above the passkey button when the inbox was opened at an IP address, where no passkey can work.
import { Alert } from '@mantine/core';
import { passkeyHostProblem } from '../passkey-host.ts';

export function HostNotice() {
  const problem = passkeyHostProblem(window.location);
  return problem ? (
    <Alert color="yellow" title="Open the inbox by the site's name">
      {problem}
    </Alert>
  ) : null;
}
