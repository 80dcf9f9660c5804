// Texts of the form parts every screen shares (src/app/forms).
import { defineMessages } from '../../i18n/defineMessages.ts';
import { textsOf } from '../../i18n/language.ts';

const messages = defineMessages({
  expirationDate: { id: 'common.form.expirationDate', defaultMessage: 'Expiration date' },
});

export const FORM_TEXTS = textsOf(messages);
