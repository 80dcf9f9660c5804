// The User value of docs/api.md. Only these fields ever leave the server.
import type { z } from 'zod';
import type { User } from '../../db/repositories/index.ts';
import type { userResponse } from './schemas.ts';

export function toUserResponse(user: User): z.input<typeof userResponse> {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    is_2fa_enabled: user.is2faEnabled,
    public_key_spki: user.publicKeySpki,
  };
}
