import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../tests/helpers/temp-dir.ts';
import { changedBy } from './changed-by.ts';

const dir = useTempDir('changed-by-');

describe('who changed a document', () => {
  it('names the last commit’s author while the file is as committed, else the time it changed on disk', () => {
    const root = dir();
    const file = 'pages/index.json';
    const absolute = join(root, file);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
    git('init', '-q');
    mkdirSync(join(root, 'pages'));
    writeFileSync(absolute, '{}\n');
    git('add', file);
    git('-c', 'user.name=Maya Chen', '-c', 'user.email=maya@example.com', 'commit', '-q', '-m', 'A page');
    expect(changedBy(file, absolute, root)).toMatch(/^Maya Chen \(committed .+\)$/);
    writeFileSync(absolute, '{ "title": "Changed" }\n');
    expect(changedBy(file, absolute, root)).toMatch(/^changed on disk at \d\d:\d\d:\d\d$/);
  });

  it('says only the time outside a git checkout', () => {
    const root = dir();
    writeFileSync(join(root, 'a.json'), '{}');
    expect(changedBy('a.json', join(root, 'a.json'), root)).toMatch(/^changed on disk at \d\d:\d\d:\d\d$/);
  });
});
