import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { RouterClient } from '@tanstack/react-router/ssr/client';
import { createRouter } from './router.tsx';
import './styles.ts';

// Hydrating in a transition lets the browser handle input between small slices of work.
const router = createRouter();
startTransition(() => {
  hydrateRoot(document, <RouterClient router={router} />);
});
