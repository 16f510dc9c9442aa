// A document whose text is not JSON (often a `git pull` conflict left in it): said so, with the parser's place, and
// never opened into the forms; every other document keeps working. It opens by itself once the file is fixed.
import { Alert, Text } from '@mantine/core';
import type { StudioFile } from '../backend/content-backend.ts';

export function BrokenFile({ file, problem }: { file: string; problem: StudioFile['broken'] }) {
  return (
    <Alert
      color="red"
      title={`${file} cannot be opened: it is not valid JSON`}
      role="alert"
      data-testid="broken-file"
    >
      {problem ? (
        <Text size="sm">
          Line {problem.line}, column {problem.column}: {problem.message.replace(/^invalid JSON: /, '')}.
        </Text>
      ) : null}
      <Text size="sm" mt="xs">
        Fix it in a text editor (a line starting with &lt;&lt;&lt;&lt;&lt;&lt;&lt;, ======= or
        &gt;&gt;&gt;&gt;&gt;&gt;&gt; is left from a git conflict), or ask a developer. The studio opens it as
        soon as it is valid; the other documents work as usual.
      </Text>
    </Alert>
  );
}
