// Every command line of the project reads its arguments with node:util's parseArgs, strictly: an unknown option, a
// missing value or a stray word stops the command with a message that says so, instead of being ignored.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A command line that cannot be read: its message is for the person who typed it (no stack trace). */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;
type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: boolean }>
>;

/** parseArgs, strict, with its refusals as a UsageError that ends with `usage` when one is given. */
export function readArgs<const O extends Options>(
  argv: readonly string[],
  options: O,
  { positionals = false, usage }: { positionals?: boolean; usage?: string } = {},
): Parsed<O> {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: positionals });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(usage ? `${message}\n${usage}` : message, { cause: error });
  }
}

/** An option that takes a whole number in [min, max], or `fallback` when it was not given. */
export function wholeNumber(
  name: string,
  text: string | undefined,
  fallback: number,
  min: number,
  max: number,
) {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min || value > max)
    throw new UsageError(`${name} takes a whole number from ${min} to ${max}`);
  return value;
}
