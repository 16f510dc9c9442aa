import { Button, type ButtonProps } from '@mantine/core';
import { IconPhone } from '@tabler/icons-react';
import type { Link } from '../../generated/content-types.ts';
import { useSite } from '../site-context.tsx';
import { LabelText } from '../text/RichText.tsx';
import { SmartLink } from '../text/SmartLink.tsx';

/** The tap-to-call button: always a real tel: link to the page's phone line. */
export function CallButton({ label, ...props }: { label: string } & ButtonProps) {
  const { phone } = useSite();
  return (
    <Button
      component="a"
      href={`tel:${phone.tel}`}
      size="lg"
      leftSection={<IconPhone size={20} aria-hidden />}
      {...props}
    >
      <LabelText text={label} />
    </Button>
  );
}

export function LinkButton({ link, ...props }: { link: Link } & ButtonProps) {
  return (
    <Button component={SmartLink} href={link.href} size="lg" {...props}>
      <LabelText text={link.label} />
    </Button>
  );
}
