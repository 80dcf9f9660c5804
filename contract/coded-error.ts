// The one way to declare an error with a fixed code (docs/architecture.md, "Errors"): code
// branches on `code`, never on the message, which is the line a person reads. The server's and
// the command-line clients' errors all extend CodedError, or the class codedError(code) returns
// when every instance has the same code; HTTP answers extend server/errors.ts's HttpError, itself
// a CodedError. Plain classes without a framework, so every layer may import them.

/** An error whose code is one of `Code`, chosen by the thrower: `new ExportError('BACKUP_UNREADABLE', message)`. */
export class CodedError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    // The subclass's own name, so logs and stack traces say which error this is.
    this.name = new.target.name;
  }
}

/** The constructor codedError returns: the message (and a cause), never the code. */
export type FixedCodeErrorClass<Code extends string> = new (message: string, options?: ErrorOptions) => CodedError<Code>;

/** The base of an error that always carries `code`: `class NetworkError extends codedError('NETWORK') {}`. */
export function codedError<const Code extends string>(code: Code): FixedCodeErrorClass<Code> {
  return class extends CodedError<Code> {
    constructor(message: string, options?: ErrorOptions) {
      super(code, message, options);
    }
  };
}
