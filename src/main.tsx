import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { lazyCryptoPool } from './app/cryptoPool.ts';
import { registerServiceWorker } from './app/registerServiceWorker.ts';
import { createAppRouter } from './routes/router.tsx';
import { makeStore } from './app/store.ts';
import { checkSession } from './features/auth/authThunks.ts';

const store = makeStore();
const router = createAppRouter(store);
const cryptoPool = lazyCryptoPool();

// Start the session check before the first render; protected routes wait for it.
void store.dispatch(checkSession());

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App store={store} router={router} cryptoPool={cryptoPool} />
  </StrictMode>,
);

registerServiceWorker();
