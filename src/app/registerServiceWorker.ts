// Production builds register workers/sw.ts (built to /sw.js) so the shell is cached and the app
// installs. Development skips it: a caching worker would serve stale modules to Vite.
//
// Updates: a new worker waits (workers/sw.ts no longer calls skipWaiting on install) and the page
// offers "Reload to update" (layout/UpdatePrompt.tsx), hidden while a transfer runs. Taking over
// silently could reload a page in the middle of an upload or swap the worker under a streaming
// download; the service worker also holds SKIP_WAITING back until its downloads have ended.
import { Workbox } from 'workbox-window';
import { updateWaiting } from './serviceWorkerUpdate.ts';

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const workbox = new Workbox('/sw.js', { scope: '/' });
  workbox.addEventListener('waiting', (event) => {
    updateWaiting(() => {
      // Reload once the new worker controls the page, so page and worker are the same version.
      workbox.addEventListener('controlling', () => window.location.reload());
      workbox.messageSkipWaiting();
    }, event.sw ?? null);
  });
  workbox.register().catch((error: unknown) => {
    // The app works without offline support; say why it is missing without bothering the user.
    console.warn('Service worker registration failed', error);
  });
}
