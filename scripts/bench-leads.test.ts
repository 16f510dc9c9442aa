import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from './bench-leads.ts';

describe('npm run bench:leads', () => {
  it('takes the run time and the number of connections, with defaults', () => {
    expect(parseBenchArgs([])).toEqual({ seconds: 10, connections: 10, store: 'sqlite', instances: 1 });
    expect(parseBenchArgs(['--seconds', '3', '--connections', '50'])).toEqual({
      seconds: 3,
      connections: 50,
      store: 'sqlite',
      instances: 1,
    });
    expect(parseBenchArgs(['--store', 'postgres', '--instances', '2'])).toMatchObject({
      store: 'postgres',
      instances: 2,
    });
    expect(() => parseBenchArgs(['--instances', '2'])).toThrow(/--instances needs --store postgres/);
    expect(() => parseBenchArgs(['--store', 'mysql'])).toThrow(/--store takes sqlite or postgres/);
    expect(() => parseBenchArgs(['--seconds', '0'])).toThrow(/--seconds takes a whole number from 1 to 300/);
    expect(() => parseBenchArgs(['--connections'])).toThrow(
      /Option '--connections <value>' argument missing/,
    );
    expect(() => parseBenchArgs(['--turbo'])).toThrow(/Unknown option '--turbo'[^]*use --seconds N/);
    expect(() => parseBenchArgs(['--seconds', '2.5'])).toThrow(/--seconds takes a whole number/);
  });
});
