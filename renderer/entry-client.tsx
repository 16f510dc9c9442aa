// First, so the site-wide CSS precedes the blocks' own (imported by their components, through the router).
import './styles.ts';
import { startTransition } from 'react';
import { RouterClient } from '@tanstack/react-router/ssr/client';
import { createRouter } from './router.tsx';
import { hydrationGate } from './shell/hydration-gate.ts';

// The visitor's taps and key presses stay the browser's until the whole page is hydrated (shell/hydration-gate.ts).
hydrationGate.install(window, () => {
  document.documentElement.dataset.hydrated = 'true';
});
const router = createRouter();
// React DOM's client (the renderer, about a third of the code) is compiled and run in a task of its own, after this
// module's: the code's evaluation at the first touch is two shorter tasks instead of one, and a key press between them
// is answered sooner. The loader prefetches it with the entry (STARTUP_IMPORTS in scripts/prerender.ts).
void import('react-dom/client').then(({ hydrateRoot }) => {
  // Hydrating in a transition lets the browser handle input between small slices of work.
  startTransition(() => {
    hydrateRoot(document, <RouterClient router={router} />);
  });
});
