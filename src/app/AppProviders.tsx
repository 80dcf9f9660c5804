import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { SnackbarProvider } from 'notistack';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { LanguageProvider } from '../i18n/LanguageProvider.tsx';
import { NotificationContent } from './layout/NotificationContent.tsx';
import { CryptoPoolProvider, type CryptoPoolSource } from './cryptoPool.ts';
import type { AppStore } from './store.ts';
import { theme } from './theme.ts';

/** Notifications: top-right, 5 s (spec section 9). */
export const NOTIFICATION_DURATION_MS = 5000;

const NOTIFICATION_COMPONENTS = {
  default: NotificationContent,
  success: NotificationContent,
  error: NotificationContent,
  warning: NotificationContent,
  info: NotificationContent,
};

export function AppProviders({ store, cryptoPool, children }: { store: AppStore; cryptoPool: CryptoPoolSource; children: ReactNode }) {
  return (
    <Provider store={store}>
      <LanguageProvider>
        <CryptoPoolProvider value={cryptoPool}>
          <ThemeProvider theme={theme}>
            <CssBaseline />
            <SnackbarProvider
              maxSnack={4}
              autoHideDuration={NOTIFICATION_DURATION_MS}
              anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
              preventDuplicate
              Components={NOTIFICATION_COMPONENTS}
            >
              {children}
            </SnackbarProvider>
          </ThemeProvider>
        </CryptoPoolProvider>
      </LanguageProvider>
    </Provider>
  );
}
