// First, so the site-wide CSS precedes the blocks' own (imported by their components, through the router).
import './styles.ts';
import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { RouterClient } from '@tanstack/react-router/ssr/client';
import { createRouter } from './router.tsx';

// Hydrating in a transition lets the browser handle input between small slices of work.
const router = createRouter();
startTransition(() => {
  hydrateRoot(document, <RouterClient router={router} />);
});
