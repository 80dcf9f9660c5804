// The team feature's own refusal: a file sealed to a folder key, in a folder this page could not
// open as a team (the server answered with no signed list for it, or no account is signed in).
import { codedError } from '../../../contract/coded-error.ts';

export class TeamNotOpenError extends codedError('TEAM_NOT_OPEN') {
  constructor() {
    super('The folder\'s member list could not be opened.');
  }
}
