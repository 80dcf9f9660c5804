// The keys slice keeps only a handle id (serialisable); the pool wants its handle object back.
import type { PrivateKeyHandle } from '../../../workers/index.ts';

export function privateKeyHandle(handleId: string): PrivateKeyHandle {
  return { id: handleId, kind: 'private' } as PrivateKeyHandle;
}
