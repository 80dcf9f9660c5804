// The app's listeners (RTK listener middleware), started for every store by makeStore.
import type { TypedStartListening } from '@reduxjs/toolkit';
import { privateKeyReleaseListener } from '../features/keys/index.ts';
import type { RootState } from './rootReducer.ts';

export type AppStartListening = TypedStartListening<RootState>;

export function startAppListeners(startListening: AppStartListening): void {
  startListening(privateKeyReleaseListener);
}
