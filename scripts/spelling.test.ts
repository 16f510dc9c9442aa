// The spell check's configuration (cspell.json, cspell-words.txt): American English over content and the schemas'
// descriptions, British forms the US dictionary lets through still refused, the project's drug names accepted.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../content/paths.ts';

/** What `npm run check:spelling` says about `text` read as the file `name`. */
function spell(name: string, text: string) {
  const run = spawnSync(
    join(ROOT, 'node_modules/.bin/cspell'),
    ['--no-progress', '--no-summary', `stdin://${name}`],
    {
      cwd: ROOT,
      input: text,
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  return { status: run.status, lines: run.stdout.trim().split('\n').filter(Boolean) };
}

describe('spell check', { timeout: 60_000 }, () => {
  it('refuses British spellings in a page, including those the US dictionary accepts', () => {
    const page = JSON.stringify({ answer: 'You learn to recognise the signs, and your lips may turn grey.' });
    expect(spell('pages/planted.json', page)).toEqual({
      status: 1,
      lines: [
        'pages/planted.json:1:25 - Unknown word (recognise)',
        'pages/planted.json:1:69 - Forbidden word (grey)',
      ],
    });
  });

  it('accepts American English and the drug and clinical names of the word list', () => {
    const page = JSON.stringify({
      text: 'We recognize the gray areas of a Klonopin or buprenorphine taper.',
    });
    expect(spell('site/planted.json', page)).toEqual({ status: 0, lines: [] });
  });

  it("reads only a schema's descriptions", () => {
    const schema = JSON.stringify({ description: 'Background in the brand colour.', pattern: '^colour$' });
    expect(spell('schemas/planted.json', schema)).toEqual({
      status: 1,
      lines: ['schemas/planted.json:1:41 - Forbidden word (colour)'],
    });
  });
});
