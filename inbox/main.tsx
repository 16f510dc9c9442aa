import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { RouterProvider } from '@tanstack/react-router';
import '@mantine/core/styles.css';
import { theme } from '../renderer/theme.ts';
import { router } from './router.tsx';
import './inbox.css';

// The staff area's CSP allows a <style> only with this response's nonce, which the server writes into this meta.
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? '';

const root = document.getElementById('inbox');
if (root)
  createRoot(root).render(
    <MantineProvider theme={theme} defaultColorScheme="auto" getStyleNonce={() => nonce}>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
