// How every command line of the project is written. Its arguments are read with node:util's parseArgs, strictly: an
// unknown option, a missing value or a stray word stops the command with a message that says so. A CLI that staff or
// tests run is a function of its arguments and a terminal (CliIo), so tests run it in-process with their own clock.
import { pathToFileURL } from 'node:url';
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

/** The terminal as a CLI sees it; tests pass their own (a clock, a user) and read what it wrote. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  out: (text: string) => void;
  err: (text: string) => void;
  now?: () => Date;
  /** The operating-system user named in the audit log; the process's own by default. */
  user?: string;
  /** rotate-key's wait for leads a server sealed with the old key (RotationOptions.settleMs), for tests. */
  rotateSettleMs?: number;
}

/** Something the staff member can fix, such as a wrong LEADS_DB; shown without a stack trace. */
export class CliFailure extends Error {}

type ErrorKind = abstract new (...args: never[]) => Error;

/**
 * A CLI as a function of its arguments: `help` (or --help, -h) prints `usage`; a UsageError prints its message and
 * `usage`, exit 2; an error of the `failures` kinds (or a CliFailure) prints its message alone, exit 1; anything else
 * is a bug, thrown with its stack.
 */
export function cli(
  run: (argv: readonly string[], io: CliIo) => Promise<number>,
  usage: string,
  failures: readonly ErrorKind[],
): (argv: readonly string[], io: CliIo) => Promise<number> {
  return async (argv, io) => {
    if (argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) {
      io.out(usage);
      return 0;
    }
    try {
      return await run(argv, io);
    } catch (error) {
      if (error instanceof UsageError) {
        io.err(`${error.message}\n\n${usage}`);
        return 2;
      }
      if ([CliFailure, ...failures].some((kind) => error instanceof kind)) {
        io.err(`${(error as Error).message}\n`);
        return 1;
      }
      throw error;
    }
  };
}

/** Runs `command` with the process's arguments and terminal when `moduleUrl` is the script node was started with. */
export async function runAsMain(
  moduleUrl: string,
  command: (argv: readonly string[], io: CliIo) => Promise<number>,
): Promise<void> {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  process.exitCode = await command(process.argv.slice(2), {
    env: process.env,
    cwd: process.cwd(),
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
}
