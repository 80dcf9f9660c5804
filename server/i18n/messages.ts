// The server's messages (e-mails, error details) are defined as the page's are (locales/defineMessages.ts).
import type { MessageDescriptor } from '../../locales/defineMessages.ts';

export { defineMessages, type MessageDescriptor } from '../../locales/defineMessages.ts';

/** A message with its values, formatted later in the reader's language (an error's detail, say). */
export interface LocalisedText {
  readonly message: MessageDescriptor;
  readonly values?: Readonly<Record<string, string | number | LocalisedText>>;
}
