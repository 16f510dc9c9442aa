// The tests' one way to run a staff CLI of scripts/ (`npm run leads`, `npm run staff`) in their own process: as a
// terminal would, with its exit code and what it wrote to stdout and to stderr kept apart for the test to read.
import type { CliIo } from '../../server/cli/cli.ts';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Runs `cli` (runLeadsCli, runStaffCli) on `args` with `io` (env, cwd, and a clock or user where a test sets them). */
export async function runCli(
  cli: (argv: readonly string[], io: CliIo) => Promise<number>,
  args: readonly string[],
  io: Omit<CliIo, 'out' | 'err'>,
): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await cli(args, { ...io, out: (text) => (out += text), err: (text) => (err += text) });
  return { code, out, err };
}
