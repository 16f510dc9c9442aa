// The lines a save would change, shown to staff before they write: a plain longest-common-subsequence diff of two
// texts, grouped into hunks with a little context.

export type DiffLine = {
  kind: 'same' | 'removed' | 'added';
  text: string;
  oldLine?: number;
  newLine?: number;
};

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  // Common head and tail are cut first: a save changes a few lines of a long file.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const cols = midB.length + 1;
  const table = new Uint32Array((midA.length + 1) * cols);
  for (let i = midA.length - 1; i >= 0; i--)
    for (let j = midB.length - 1; j >= 0; j--)
      table[i * cols + j] =
        midA[i] === midB[j]
          ? (table[(i + 1) * cols + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * cols + j] ?? 0, table[i * cols + j + 1] ?? 0);
  const lines: DiffLine[] = a
    .slice(0, head)
    .map((text, i) => ({ kind: 'same', text, oldLine: i + 1, newLine: i + 1 }));
  let i = 0;
  let j = 0;
  while (i < midA.length || j < midB.length) {
    if (i < midA.length && j < midB.length && midA[i] === midB[j]) {
      lines.push({ kind: 'same', text: midA[i] ?? '', oldLine: head + i + 1, newLine: head + j + 1 });
      i++;
      j++;
    } else if (
      j >= midB.length ||
      (i < midA.length && (table[(i + 1) * cols + j] ?? 0) >= (table[i * cols + j + 1] ?? 0))
    ) {
      lines.push({ kind: 'removed', text: midA[i] ?? '', oldLine: head + i + 1 });
      i++;
    } else {
      lines.push({ kind: 'added', text: midB[j] ?? '', newLine: head + j + 1 });
      j++;
    }
  }
  a.slice(a.length - tail).forEach((text, k) =>
    lines.push({ kind: 'same', text, oldLine: a.length - tail + k + 1, newLine: b.length - tail + k + 1 }),
  );
  return lines;
}

/** Only the changed lines and `context` lines around each. */
export function changedHunks(lines: DiffLine[], context = 2): DiffLine[][] {
  const keep = lines.map(() => false);
  lines.forEach((line, i) => {
    if (line.kind === 'same') return;
    for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) keep[k] = true;
  });
  const hunks: DiffLine[][] = [];
  let current: DiffLine[] | undefined;
  lines.forEach((line, i) => {
    if (!keep[i]) current = undefined;
    else (current ??= (hunks.push([]), hunks[hunks.length - 1] ?? [])).push(line);
  });
  return hunks;
}
