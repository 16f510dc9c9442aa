import './site-data.ts';
import { createRoot } from 'react-dom/client';
import { createTheme, MantineProvider } from '@mantine/core';
import '@mantine/core/styles.css';
import { App } from './App.tsx';
import { changeId, online } from './backend/backend.ts';
import { ChangeSetPicker } from './online/ChangeSetPicker.tsx';
import { nonceProps } from './style-nonce.ts';
import './studio.css';

// Darker shades than Mantine's defaults, so every text and button meets WCAG AA contrast (axe checks the studio).
const theme = createTheme({ primaryShade: 8, autoContrast: true });

const root = document.getElementById('studio');
if (root)
  createRoot(root).render(
    <MantineProvider theme={theme} defaultColorScheme="auto" {...nonceProps}>
      {/* Online, the edits go into a change set: it is chosen (or started) first. */}
      {online && changeId === null ? <ChangeSetPicker /> : <App />}
    </MantineProvider>,
  );
