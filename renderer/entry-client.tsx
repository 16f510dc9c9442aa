// First, so the site-wide CSS precedes the blocks' own (imported by their components, through the router).
import './styles.ts';
import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { RouterClient } from '@tanstack/react-router/ssr/client';
import { createRouter } from './router.tsx';
import { hydrationGate } from './shell/hydration-gate.ts';

// The visitor's taps and key presses stay the browser's until the whole page is hydrated (shell/hydration-gate.ts).
hydrationGate.install(window, () => {
  document.documentElement.dataset.hydrated = 'true';
});
// Hydrating in a transition lets the browser handle input between small slices of work.
const router = createRouter();
startTransition(() => {
  hydrateRoot(document, <RouterClient router={router} />);
});
