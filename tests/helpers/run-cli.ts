// The tests' one way to run a CLI of the project (`npm run leads`, `npm run staff`, `npm run validate`): in-process, as
// the function each exports (core/cli.ts), with the test's own folder, environment, clock and user, and with its exit
// code and what it wrote to stdout and to stderr kept apart for the test to read. (The benchmarks run as processes of
// their own, scripts/benchmarks.test.ts: they start servers and time them.)
import type { CliIo } from '../../core/cli.ts';

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
