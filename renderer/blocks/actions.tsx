import { Button, type ButtonProps } from '@mantine/core';
import { IconPhone } from '@tabler/icons-react';
import type { Link } from '../../generated/content-types.ts';
import { useSite } from '../site-context.tsx';
import { usePlainText } from '../text/RichText.tsx';
import { SmartLink } from '../text/SmartLink.tsx';

/** The tap-to-call button: always a real tel: link to the page's phone line. */
export function CallButton({ label, ...props }: { label: string } & ButtonProps) {
  const { phone } = useSite();
  const plain = usePlainText();
  return (
    <Button
      component="a"
      href={`tel:${phone.tel}`}
      size="lg"
      leftSection={<IconPhone size={20} aria-hidden />}
      {...props}
    >
      {plain(label)}
    </Button>
  );
}

export function LinkButton({ link, ...props }: { link: Link } & ButtonProps) {
  const plain = usePlainText();
  return (
    <Button component={SmartLink} href={link.href} size="lg" {...props}>
      {plain(link.label)}
    </Button>
  );
}
