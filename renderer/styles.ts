// Only the Mantine CSS the site uses (about a third of the full stylesheet), then the site-wide CSS in
// renderer/styles/, in cascade order. Not Mantine's default-css-variables.css: renderer/head.ts writes every one of
// those variables, from our theme, into <head>. Each block's own blocks/<type>/styles.css is imported by its
// component; entry-client.tsx imports this file before the router, so the blocks' rules come after these. The
// spinner's and the toasts' CSS load with the toasts' code, once a form is being filled (renderer/toast-area.ts).
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/Avatar.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/CloseButton.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/shell.css';
import './styles/widget.css';
import './styles/forms.css';
