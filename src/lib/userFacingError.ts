// Errors the app raises itself whose message is already the exact text the user should read (the
// spec's catalogue). Code branches on `code`, never on the message.

export class UserFacingError<Code extends string = string> extends Error {
  override readonly name: string = 'UserFacingError';

  constructor(
    readonly code: Code,
    message: string,
  ) {
    super(message);
  }
}

export function isUserFacingError(error: unknown): error is UserFacingError {
  return error instanceof UserFacingError;
}
