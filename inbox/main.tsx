import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { RouterProvider } from '@tanstack/react-router';
import '@mantine/core/styles.css';
import type { Site } from '../generated/content-types.ts';
import { siteTheme } from '../renderer/theme.ts';
// The inbox is staff-only and built with the code: its brand colour is read from the checkout's site document.
import siteJson from '../site/site.json';
import { router } from './router.tsx';
import './inbox.css';

// The staff area's CSP allows a <style> only with this response's nonce, which the server writes into this meta.
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';

const root = document.getElementById('inbox');
if (root)
  createRoot(root).render(
    <MantineProvider
      theme={siteTheme(siteJson as Site)}
      defaultColorScheme="auto"
      getStyleNonce={() => nonce}
    >
      <RouterProvider router={router} />
    </MantineProvider>,
  );
