import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../tests/helpers/temp-dir.ts';
import { ContentError, loadForms, loadSite } from './content.ts';

describe('server content', () => {
  const tempDir = useTempDir('forms-');

  it('loads the site document and every form, by file name', () => {
    expect(loadSite().phones.primary.tel).toMatch(/^\+1/);
    const forms = loadForms();
    expect(forms.get('insurance-verification')?.fields.map((field) => field.name)).toContain('memberId');
  });

  it('refuses a form that breaks its schema', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'broken.json'), JSON.stringify({ name: 'x', fields: [] }));
    expect(() => loadForms(dir)).toThrow(ContentError);
  });
});
