import { configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { baseApi } from '../api/baseApi.ts';
import { rootReducer, type RootState } from './rootReducer.ts';

export { rootReducer, type RootState } from './rootReducer.ts';

export function makeStore(preloadedState?: Partial<RootState>) {
  // One listener middleware per store, for side effects of plain actions (e.g. wiping a dropped key
  // from the workers): a feature adds its listener with `addListener` when it first needs it, so the
  // store knows no feature.
  const listeners = createListenerMiddleware();
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().prepend(listeners.middleware).concat(baseApi.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
