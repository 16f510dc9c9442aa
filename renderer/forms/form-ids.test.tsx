// A form can be on a page twice: in the page (a form block) and in the floating widget's dialog, which every page has.
import { describe, expect, it } from 'vitest';
import { FormDialog } from './FormDialog.tsx';
import { FormBlock } from '../../blocks/form/component.tsx';
import { renderToDom } from '../../tests/helpers/render-to-dom.tsx';

const ids = (page: Element) => [...page.querySelectorAll('[id]')].map((element) => element.id);
const repeated = (list: string[]) => list.filter((id, i) => list.indexOf(id) !== i);
/** Every id that a label, an ARIA relation, a popover button or an in-page link points to. */
const references = (page: Element) => [
  ...[...page.querySelectorAll('label[for], [aria-labelledby], [aria-describedby], [popovertarget]')].flatMap(
    (element) =>
      ['for', 'aria-labelledby', 'aria-describedby', 'popovertarget'].flatMap(
        (name) => element.getAttribute(name)?.split(/\s+/) ?? [],
      ),
  ),
  ...[...page.querySelectorAll('a[href^="#"]')].map((link) => link.getAttribute('href')!.slice(1)),
];
const dangling = (page: Element) => references(page).filter((id) => !ids(page).includes(id));

describe('form element ids', () => {
  it('never repeat, and each one pointed to exists, when the widget dialog and the page show the same form', async () => {
    const page = await renderToDom(
      <>
        <FormBlock block={{ type: 'form', heading: 'Talk to us', formId: 'consultation' }} />
        <FormDialog formId="consultation" />
      </>,
    );
    expect(ids(page)).toContain('consultation-firstName');
    expect(references(page)).toEqual(
      expect.arrayContaining(['consultation-firstName', 'consultation-dialog-title', 'consultation-dialog']),
    );
    expect(page.querySelectorAll('form')).toHaveLength(2);
    expect(repeated(ids(page))).toEqual([]);
    expect(dangling(page)).toEqual([]);
  });

  it('never repeat, and each one pointed to exists, in a section offering two forms beside the dialogs', async () => {
    const page = await renderToDom(
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
    expect(ids(page)).toEqual(
      expect.arrayContaining(['contact-consultation', 'contact-insurance-verification']),
    );
    expect(references(page)).toEqual(
      expect.arrayContaining(['contact-consultation', 'contact-insurance-verification']),
    );
    expect(page.querySelectorAll('form')).toHaveLength(4);
    expect(repeated(ids(page))).toEqual([]);
    expect(dangling(page)).toEqual([]);
  });
});
