// The User value of docs/api.md. Only these fields ever leave the server.
import type { User } from '../../db/repositories/index.ts';
import type { User as UserResponse } from '../../../contract/auth.ts';

export function toUserResponse(user: User): UserResponse {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    is_2fa_enabled: user.is2faEnabled,
    public_key_spki: user.publicKeySpki,
    org_role: user.orgRole,
    language: user.language,
    has_password: user.passwordSignIn,
  };
}
