// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../app/testing/renderWithProviders.tsx';
import { CREATE_LINK_MESSAGES } from '../../lib/userTexts.ts';
import { CreateDownloadLinkDialog } from './CreateDownloadLinkDialog.tsx';
import { GENERATED_LINK_PASSWORD } from './linkPassword.ts';
import { createStrengthChecker, type StrengthChecker } from './linkPasswordStrength.ts';
import type { CreateLinkChoices } from './createLinkForm.ts';

afterEach(cleanup);

function openDialog(strengthChecker?: StrengthChecker) {
  const onSubmit = vi.fn<(choices: CreateLinkChoices) => void>();
  renderWithProviders(
    <CreateDownloadLinkDialog open fileNames={['report.pdf']} busy={false} onCancel={() => undefined} onSubmit={onSubmit} {...(strengthChecker ? { strengthChecker } : {})} />,
  );
  const dialog = screen.getByRole('dialog', { name: 'Create Download Link' });
  const password = within(dialog).getByLabelText('Link password', { exact: true });
  const typePassword = (value: string) => {
    fireEvent.change(password, { target: { value } });
    fireEvent.change(within(dialog).getByLabelText('Confirm link password'), { target: { value } });
  };
  const submit = () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create Link' }));
  return { dialog, password: password as HTMLInputElement, typePassword, submit, onSubmit };
}

describe('create-link dialog: typed link passwords', () => {
  it('refuses a typed password of 8+ characters weaker than a suggestion, says why and offers a suggestion', async () => {
    const { dialog, password, typePassword, submit, onSubmit } = openDialog();
    typePassword('Summer2026!');
    submit();
    expect(await within(dialog).findByText(CREATE_LINK_MESSAGES.passwordTooWeak)).toBeVisible();
    expect(password).toHaveAccessibleDescription(CREATE_LINK_MESSAGES.passwordTooWeak);
    expect(onSubmit).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Use a suggested password' }));
    expect(password.value).toMatch(GENERATED_LINK_PASSWORD);
    expect(within(dialog).getByLabelText('Confirm link password')).toHaveValue(password.value);
    submit();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0].password).toBe(password.value);
  });

  it('keeps the 8-character rule and its message before any strength check', async () => {
    const { dialog, typePassword, submit, onSubmit } = openDialog();
    typePassword('short');
    submit();
    expect(await within(dialog).findByText('Password must be at least 8 characters long.')).toBeVisible();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('accepts a strong typed password', async () => {
    const { typePassword, submit, onSubmit } = openDialog();
    typePassword('violet kettle marches 93 upward');
    submit();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0].password).toBe('violet kettle marches 93 upward');
  });

  it('accepts the suggested password without loading the estimator', async () => {
    const load = vi.fn(() => Promise.reject(new Error('must not load')));
    const { submit, onSubmit } = openDialog(createStrengthChecker({ load }));
    submit();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0].password).toMatch(GENERATED_LINK_PASSWORD);
    expect(load).not.toHaveBeenCalled();
  });

  it('refuses a typed password with a clear error when the estimator cannot be loaded', async () => {
    const { dialog, typePassword, submit, onSubmit } = openDialog(createStrengthChecker({ load: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')) }));
    typePassword('violet kettle marches 93 upward');
    submit();
    expect(await within(dialog).findByText(CREATE_LINK_MESSAGES.passwordCheckUnavailable)).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Use a suggested password' })).toBeVisible();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses when the estimator never arrives, once its time limit has passed', async () => {
    const { dialog, typePassword, submit, onSubmit } = openDialog(createStrengthChecker({ load: () => new Promise(() => undefined), timeoutMs: 50 }));
    typePassword('violet kettle marches 93 upward');
    submit();
    expect(within(dialog).getByRole('button', { name: 'Checking...' })).toBeDisabled();
    expect(await within(dialog).findByText(CREATE_LINK_MESSAGES.passwordCheckUnavailable)).toBeVisible();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
