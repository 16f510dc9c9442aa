import { describe, expect, it } from 'vitest';
import { siteData } from '../../renderer/site-data.ts';
import { renderToDom, visibleText } from '../../tests/helpers/render-to-dom.tsx';
import { FormBlock } from './component.tsx';

describe('form', () => {
  it("states its form's promise in words made from promiseMinutes, never typed", async () => {
    const render = async () =>
      visibleText(
        await renderToDom(
          <FormBlock
            block={{
              type: 'form',
              id: 'contact',
              heading: 'Talk to us',
              formId: 'consultation',
              secondFormId: 'insurance-verification',
            }}
          />,
        ),
      );
    const first = await render();
    expect(first).toContain('will call you within 15 minutes.');
    expect(first).toContain('will contact you within 24 hours with your benefit details.');
    const consultation = siteData().forms.consultation;
    if (!consultation) throw new Error('no consultation form');
    const kept = consultation.promiseMinutes;
    try {
      // The one value changed: the words follow, as the inbox's due time does.
      consultation.promiseMinutes = 60;
      const text = await render();
      expect(text).toContain('will call you within 1 hour.');
      expect(text).not.toContain('{promise}');
    } finally {
      consultation.promiseMinutes = kept;
    }
  });
});
