import { configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { baseApi } from '../api/baseApi.ts';
import { startAppListeners } from './listeners.ts';
import { rootReducer, type RootState } from './rootReducer.ts';

export { rootReducer, type RootState } from './rootReducer.ts';

export function makeStore(preloadedState?: Partial<RootState>) {
  // One listener middleware per store: side effects of plain actions (e.g. wiping a dropped key from
  // the workers) run once per store, whichever screens are mounted.
  const listeners = createListenerMiddleware();
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().prepend(listeners.middleware).concat(baseApi.middleware),
  });
  startAppListeners(listeners.startListening.withTypes<RootState, typeof store.dispatch>());
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
