import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { Button } from '@mantine/core';
import { IconMessage, IconPhone, IconShieldCheck } from '@tabler/icons-react';
import { useSite } from '../site-context.tsx';
import { LabelText } from '../text/RichText.tsx';
import { dialogId, FormDialog, openDialog } from '../forms/FormDialog.tsx';
import { HydrationSlice } from './HydrationSlice.tsx';
import { enter, LOOKS, prefetchMotion } from '../motion/motion.ts';

/**
 * The floating call to action of every page: hidden until the page is scrolled past the threshold
 * (site.widget.showAfterScroll); under 768 px wide a bottom bar, from 768 px a round Verify Insurance button
 * whose hover and focus menu offers the phone number and a free consultation, by width alone, touch screens
 * included. It overlays the page, so showing it never moves the content. It rises into view as it appears: by CSS until
 * the motion code is here, then by framer-motion (renderer/motion/), which the first scroll fetches.
 */
export function FloatingWidget() {
  const { site, phone } = useSite();
  const { widget } = site;
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    const update = () => setVisible(window.scrollY > widget.showAfterScroll);
    // A scroll (not the page's hydration) fetches the motion code for the widget's next appearance.
    const scrolled = () => {
      prefetchMotion();
      update();
    };
    update();
    window.addEventListener('scroll', scrolled, { passive: true });
    return () => window.removeEventListener('scroll', scrolled);
  }, [widget.showAfterScroll]);

  const asideRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (visible && asideRef.current) void enter([asideRef.current], LOOKS.widget);
  }, [visible]);

  // A dialog opened from the round button's menu gives focus back to its opener on closing, but by then the menu,
  // shown only while hovered or focused, is hidden and cannot take it: the round button takes it instead.
  const roundButtonRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const dialogs = [widget.insuranceFormId, widget.consultationFormId].map((formId) =>
      document.getElementById(dialogId(formId)),
    );
    // Chromium fires `close` before it moves focus back, so look once that is done.
    const refocus = () =>
      setTimeout(() => {
        const button = roundButtonRef.current;
        if (document.activeElement === document.body && button?.checkVisibility()) button.focus();
      });
    for (const dialog of dialogs) dialog?.addEventListener('close', refocus);
    return () => {
      for (const dialog of dialogs) dialog?.removeEventListener('close', refocus);
    };
  }, [widget.insuranceFormId, widget.consultationFormId]);

  const opener = (formId: string) => ({
    popoverTarget: dialogId(formId),
    onClick: (event: React.MouseEvent<HTMLButtonElement>) => openDialog(event, formId),
  });

  return (
    <>
      <aside
        ref={asideRef}
        className="floating-widget"
        data-visible={visible}
        style={{ '--widget-threshold': `${widget.showAfterScroll}px` } as CSSProperties}
        aria-label={widget.menuLabel}
        onPointerDownCapture={prefetchMotion}
        onFocusCapture={prefetchMotion}
      >
        <div className="widget-bar">
          <Button
            {...opener(widget.insuranceFormId)}
            leftSection={<IconShieldCheck size={18} aria-hidden />}
            flex={1}
          >
            {widget.verifyLabel}
          </Button>
          <Button
            {...opener(widget.consultationFormId)}
            variant="white"
            leftSection={<IconMessage size={18} aria-hidden />}
            flex={1}
          >
            {widget.consultationLabel}
          </Button>
        </div>
        <div className="widget-round">
          <div className="widget-menu">
            <a href={`tel:${phone.tel}`} className="widget-menu-link">
              <IconPhone size={18} aria-hidden />
              <LabelText text={widget.callLabel} />
            </a>
            <button type="button" className="widget-menu-link" {...opener(widget.consultationFormId)}>
              <IconMessage size={18} aria-hidden />
              {widget.consultationLabel}
            </button>
          </div>
          <button
            ref={roundButtonRef}
            type="button"
            className="widget-round-button"
            aria-label={widget.verifyLabel}
            {...opener(widget.insuranceFormId)}
          >
            <IconShieldCheck size={28} aria-hidden />
          </button>
        </div>
      </aside>
      {/* Hydrated apart from the bar: a tap on the bar gets its answer without waiting for both forms. */}
      <HydrationSlice>
        <FormDialog formId={widget.insuranceFormId} />
      </HydrationSlice>
      <HydrationSlice>
        <FormDialog formId={widget.consultationFormId} />
      </HydrationSlice>
    </>
  );
}
