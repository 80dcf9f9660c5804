// Texts of the form parts every screen shares (src/app/forms).

export const FORM_TEXTS = {
  expirationDate: 'Expiration date',
} as const;
