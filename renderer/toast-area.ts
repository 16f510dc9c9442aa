// What a form needs only once it is being sent, loaded with the notification system when a visitor starts filling
// one (renderer/toasts.tsx): the spinner's CSS while it is sent, the toasts' CSS and code after. Out of every page's
// first load: about 1.8 KB of CSS (gzip) no visitor without JavaScript could ever see.
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';

export { Notifications, notifications } from '@mantine/notifications';
