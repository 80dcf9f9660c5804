// Production builds register workers/sw.ts (built to /sw.js) so the shell is cached and the app
// installs. Development skips it: a caching worker would serve stale modules to Vite.
import { Workbox } from 'workbox-window';

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const workbox = new Workbox('/sw.js', { scope: '/' });
  workbox.register().catch((error: unknown) => {
    // The app works without offline support; say why it is missing without bothering the user.
    console.warn('Service worker registration failed', error);
  });
}
