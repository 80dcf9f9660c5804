/**
 * node:crypto implementation of the encrypted file format and its keys (docs/format.md), for the
 * offline decrypt command and as the independent reference in tests. Imports nothing from src/.
 */
export * from './errors.ts';
export * from './file-format.ts';
export * from './keys.ts';
export * from './kdf-params.ts';
export * from './account-kdf.ts';
export * from './team-manifest.ts';
export * from './team-keys.ts';
