import { Link } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, ReactNode } from 'react';

type Props = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { href: string; children: ReactNode };

/** Site paths navigate inside the app (a real <a href> that prefetches on intent); anything else is a plain link. */
export function SmartLink({ href, children, ...rest }: Props) {
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
