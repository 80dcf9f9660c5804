// The one catalogue of the texts users read (style rule 6; the spec's section 8 catalogue and the
// screens' own texts, quoted exactly). Features import their texts from here; workers send codes and
// facts, and the page turns them into text here (downloadErrorText). Split by screen:
export * from './userTexts/accessibility.ts';
export * from './userTexts/download.ts';
export * from './userTexts/files.ts';
export * from './userTexts/folders.ts';
export * from './userTexts/forms.ts';
export * from './userTexts/keys.ts';
export * from './userTexts/links.ts';
export * from './userTexts/members.ts';
export * from './userTexts/organisation.ts';
export * from './userTexts/orgRecovery.ts';
export * from './userTexts/recipient.ts';
export * from './userTexts/signIn.ts';
export * from './userTexts/storage.ts';
export * from './userTexts/upload.ts';
export * from './userTexts/passkeys.ts';
export * from './userTexts/sso.ts';
export * from './userTexts/team.ts';
export * from './userTexts/layout.ts';
