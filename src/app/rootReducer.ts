// The root reducer: the API cache and the session are always there; every other slice is injected
// by its feature when the feature's code loads (RTK's lazy-slice API). A feature declares its
// slice in LazyLoadedSlices (module augmentation) and reads it through the injected slice's
// selectors, which answer with the slice's initial state until it is injected.
import { combineSlices } from '@reduxjs/toolkit';
import { baseApi } from '../api/baseApi.ts';
import { authSlice } from '../features/auth/index.ts';

// Filled by the features: `declare module '…/app/rootReducer.ts' { interface LazyLoadedSlices extends WithSlice<typeof slice> {} }`.
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices(baseApi, authSlice).withLazyLoadedSlices<LazyLoadedSlices>();

export type RootState = ReturnType<typeof rootReducer>;
