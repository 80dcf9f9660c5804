// The sign-in page's part of single sign-on: "Sign in with <name>" when the server has a provider
// (a plain navigation to the start route, which sends the browser on to the provider), the words
// for a refused sign-in the callback sent back (?sso_error=CODE), and whether the password form is
// offered at all.
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import { SSO_START_PATH, useSsoSettingsQuery } from '../../api/ssoApi.ts';
import { SSO_TEXTS as T } from '../../lib/userTexts.ts';

/** The refusal the callback named in this page's address, in words; null when there is none. */
export function ssoRefusalText(search: string = window.location.search): string | null {
  const code = new URLSearchParams(search).get('sso_error');
  return code && /^[A-Z_]{1,64}$/.test(code) ? T.refusal(code) : null;
}

/**
 * Whether the password form is offered (false only when the server says PASSWORD_SIGN_IN=off);
 * null while the first answer is on its way, so that the page can hold its choices instead of
 * showing them and then moving them down (the provider's button arrives above them) or away. A
 * failed or timed-out answer offers the form.
 */
export function usePasswordSignIn(): boolean | null {
  const settings = useSsoSettingsQuery();
  if (settings.isLoading) return null;
  return settings.data?.password_sign_in ?? true;
}

export function SsoSignInButton({ disabled }: { disabled: boolean }) {
  const settings = useSsoSettingsQuery().data;
  if (!settings?.sso) return null;
  return (
    <Stack spacing={2} sx={{ mb: 3 }}>
      {!settings.password_sign_in && <Alert severity="info">{T.passwordOff}</Alert>}
      <Button variant="contained" size="large" fullWidth disabled={disabled} href={SSO_START_PATH}>
        {T.signInWith(settings.sso.name)}
      </Button>
      {settings.password_sign_in && <Divider>{T.or}</Divider>}
    </Stack>
  );
}
