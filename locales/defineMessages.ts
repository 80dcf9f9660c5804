/** A message: its id (by screen, 'upload.gate.passwordRequired') and its English text. */
export interface MessageDescriptor {
  readonly id: string;
  readonly defaultMessage: string;
  /** Context for translators. */
  readonly description?: string;
}

/**
 * A module's messages. Named as FormatJS's own so `npm run i18n:extract` and the formatjs lint
 * rules find the calls; shared by the page, the service worker and the server (none imports
 * another's), and returning plain descriptors: values are checked by the catalogue tests
 * (tests/i18n) rather than by a type parameter written out at every definition.
 */
export function defineMessages<const Key extends string>(messages: Record<Key, MessageDescriptor>): Readonly<Record<Key, MessageDescriptor>> {
  return messages;
}
