// The team feature's own refusal: a file sealed to a folder key, in a folder this page could not
// open as a team (the server answered with no signed list for it, or no account is signed in).
import { codedError } from '../../../contract/coded-error.ts';
import { UserFacingError } from '../../lib/userFacingError.ts';
import { TEAM_TEXTS } from '../../lib/userTexts.ts';

export class TeamNotOpenError extends codedError('TEAM_NOT_OPEN') {
  constructor() {
    super(TEAM_TEXTS.notOpen);
  }
}

/** A team folder's file sealed to the owner's account key (uploaded while the folder was being shared), asked for by another member. */
export class OwnerKeyOnlyError extends UserFacingError<'OWNER_KEY_ONLY'> {
  override readonly name = 'OwnerKeyOnlyError';

  constructor() {
    super('OWNER_KEY_ONLY', TEAM_TEXTS.ownerKeyOnly);
  }
}
