// Only the Mantine CSS the site uses (about a third of the full stylesheet), then the site's own. Not Mantine's
// default-css-variables.css: renderer/head.ts writes every one of those variables, from our theme, into <head>.
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
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';
import './site.css';
