import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { lazyCryptoPool } from './app/cryptoPool.ts';
import { registerServiceWorker } from './app/registerServiceWorker.ts';
import { createAppRouter } from './routes/router.tsx';
import { makeStore } from './app/store.ts';
import { checkSession } from './features/auth/authThunks.ts';
import { initialLanguage, switchLanguage } from './i18n/language.ts';

const store = makeStore();
const router = createAppRouter(store);
const cryptoPool = lazyCryptoPool();

// Start the session check before the first render; protected routes wait for it.
void store.dispatch(checkSession());

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The page's language before its first text: the one chosen in this browser, else the browser's.
// A catalogue that cannot be fetched leaves the page in English rather than blank.
await switchLanguage(initialLanguage(readableStorage(), navigator.languages)).catch(() => undefined);

createRoot(container).render(
  <StrictMode>
    <App store={store} router={router} cryptoPool={cryptoPool} />
  </StrictMode>,
);

registerServiceWorker();

function readableStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
