import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';

describe('logger', () => {
  it('censors submitted data and personal fields wherever they are logged', () => {
    const lines: string[] = [];
    const logger = createLogger({
      personalFields: ['memberId'],
      destination: { write: (line) => lines.push(line) },
    });
    logger.info({ data: { fullName: 'Jane' }, lead: { memberId: 'M-1' }, body: 'raw' }, 'oops');
    const text = lines.join('');
    for (const secret of ['Jane', 'M-1', 'raw']) expect(text).not.toContain(secret);
    expect(JSON.parse(text)).toMatchObject({ level: 30, msg: 'oops', lead: { memberId: '[redacted]' } });
  });
});
