// Parts that forms are built from, so every screen asks for a password, an optional setting and a
// deadline the same way (docs/architecture.md, "Patterns to copy").
export { DialogChoice, type DialogChoiceProps } from './DialogChoice.tsx';
export { ExpiryDateField, WholeNumberField } from './ExpiryFields.tsx';
export { OptionalSetting, type OptionalSettingProps } from './OptionalSetting.tsx';
export { PasswordField, type PasswordFieldProps } from './PasswordField.tsx';
