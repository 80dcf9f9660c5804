import type { MessageDescriptor } from 'react-intl';

/**
 * A screen's messages: each with its id (by screen: 'upload.gate.passwordRequired') and its
 * English text. Named as FormatJS's own so `npm run i18n:extract` and the formatjs lint rules find
 * the calls; unlike react-intl's, it returns plain descriptors, so values are checked by the
 * catalogue tests (tests/i18n) rather than by a type parameter written out at every definition.
 */
export function defineMessages<const Key extends string>(messages: Record<Key, MessageDescriptor>): Readonly<Record<Key, MessageDescriptor>> {
  return messages;
}
