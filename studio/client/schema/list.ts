// Lists changed without mutation, as every edit of a document is (JSON pointers: content/json-pointer.ts).

/** Moves an array item from one index to another. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  if (item !== undefined) copy.splice(to, 0, item);
  return copy;
}
