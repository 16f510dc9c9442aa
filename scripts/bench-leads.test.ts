import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from './bench-leads.ts';

describe('npm run bench:leads', () => {
  it('takes the run time and the number of connections, with defaults', () => {
    expect(parseBenchArgs([])).toEqual({ seconds: 10, connections: 10 });
    expect(parseBenchArgs(['--seconds', '3', '--connections', '50'])).toEqual({
      seconds: 3,
      connections: 50,
    });
    expect(() => parseBenchArgs(['--seconds', '0'])).toThrow(/--seconds takes a whole number from 1 to 300/);
    expect(() => parseBenchArgs(['--connections'])).toThrow(/--connections/);
    expect(() => parseBenchArgs(['--turbo'])).toThrow(/unknown option --turbo/);
  });
});
