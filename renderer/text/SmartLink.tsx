import { Link } from '@tanstack/react-router';
import { useSite } from '../site-context.tsx';
import type { AnchorHTMLAttributes, ReactNode } from 'react';

type Props = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { href: string; children: ReactNode };

/**
 * Site paths navigate inside the app (a real <a href> that prefetches on intent); {phone} calls the page's phone
 * line; anything else is a plain link.
 */
export function SmartLink({ href, children, ...rest }: Props) {
  const { phone } = useSite();
  if (href === '{phone}')
    return (
      <a href={`tel:${phone.tel}`} {...rest}>
        {children}
      </a>
    );
  if (!href.startsWith('/'))
    return (
      <a href={href} {...rest}>
        {children}
      </a>
    );
  const [to = '/', hash] = href.split('#');
  return (
    <Link to={to} hash={hash} {...rest}>
      {children}
    </Link>
  );
}
