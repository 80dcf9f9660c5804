// The page's messages are defined as the server's and the service worker's are (locales/defineMessages.ts).
export { defineMessages, type MessageDescriptor } from '../../locales/defineMessages.ts';
