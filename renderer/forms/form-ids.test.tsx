// A form can be on a page twice: in the page (a form block) and in the floating widget's dialog, which every page has.
import { describe, expect, it } from 'vitest';
import { FormDialog } from './FormDialog.tsx';
import { FormBlock } from '../../blocks/form/component.tsx';
import { renderToHtml } from '../../tests/helpers/render-to-html.tsx';

const ids = (html: string) => [...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]);
const repeated = (list: (string | undefined)[]) => list.filter((id, i) => list.indexOf(id) !== i);

describe('form element ids', () => {
  it('never repeat when the widget dialog and the page show the same form', async () => {
    const html = await renderToHtml(
      <>
        <FormBlock block={{ type: 'form', heading: 'Talk to us', formId: 'consultation' }} />
        <FormDialog formId="consultation" />
      </>,
    );
    expect(ids(html)).toContain('consultation-firstName');
    expect(repeated(ids(html))).toEqual([]);
  });

  it('never repeat in a section offering two forms beside the dialogs', async () => {
    const html = await renderToHtml(
      <>
        <FormBlock
          block={{
            type: 'form',
            id: 'contact',
            heading: 'Get started',
            formId: 'consultation',
            secondFormId: 'insurance-verification',
          }}
        />
        <FormDialog formId="consultation" />
        <FormDialog formId="insurance-verification" />
      </>,
    );
    expect(ids(html)).toEqual(
      expect.arrayContaining(['contact-consultation', 'contact-insurance-verification']),
    );
    expect(repeated(ids(html))).toEqual([]);
  });
});
