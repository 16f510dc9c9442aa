// `npm run lint` keeps the house's boundaries: no import cycle (type-only imports included), no shipped code importing
// the build tools, no browser app importing the server, no engine folder importing the apps built on it. Each check is
// shown a file that breaks it, so a loosened rule fails here.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cruise } from 'dependency-cruiser';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers/temp-dir.ts';

const ROOT = join(import.meta.dirname, '../..');

describe('import cycles', () => {
  const dir = useTempDir();

  it('fail on a cycle closed only by a type import', async () => {
    writeFileSync(
      join(dir(), 'store.ts'),
      "import type { Row } from './row.ts';\nexport const rows: Row[] = [];\n",
    );
    writeFileSync(
      join(dir(), 'row.ts'),
      "import { rows } from './store.ts';\nexport type Row = typeof rows;\n",
    );
    const config = (await import(join(ROOT, '.dependency-cruiser.cjs'))).default;
    const result = await cruise([dir()], {
      ...config.options,
      validate: true,
      ruleSet: { forbidden: config.forbidden },
    });
    const output = typeof result.output === 'string' ? JSON.parse(result.output) : result.output;
    expect(output.summary.violations.map((v: { rule: { name: string } }) => v.rule.name)).toContain(
      'no-cycle',
    );
  });
});

describe('folder boundaries', () => {
  const eslint = new ESLint({ cwd: ROOT });
  const problems = async (file: string, code: string) =>
    (await eslint.lintText(code, { filePath: join(ROOT, file) }))
      .flatMap((result) => result.messages)
      .filter((message) => message.ruleId === '@typescript-eslint/no-restricted-imports')
      .map((message) => message.message);

  it.each([
    [
      'server/http/x.ts',
      "import { copyProject } from '../../scripts/lib/project-copy.ts';",
      'server/ must not import scripts/',
    ],
    [
      'inbox/list/x.ts',
      "import type { LeadRow } from '../../server/store/contract.ts';",
      'inbox/ must not import server/',
    ],
    [
      'studio/client/x.ts',
      "import { api } from '../server/api.ts';",
      'studio/client/ must not import server/',
    ],
    ['renderer/x.ts', "import { App } from '../studio/client/App.tsx';", 'renderer/ must not import studio/'],
    [
      'blocks/hero/x.ts',
      "import { router } from '../../inbox/router.tsx';",
      'blocks/ must not import inbox/',
    ],
    ['core/x.ts', "import { config } from '../server/config.ts';", 'core/ must not import server/'],
  ])('%s: %s is refused', async (file, code, message) => {
    expect((await problems(file, `${code}\nexport {};\n`)).join('\n')).toContain(message);
  });

  it('lets a test of shipped code start a build tool, and shipped code import the core', async () => {
    expect(await problems('server/http/x.test.ts', "import '../../scripts/lib/project-copy.ts';\n")).toEqual(
      [],
    );
    expect(await problems('server/http/x.ts', "import '../../core/redirects.ts';\n")).toEqual([]);
  });
});
