import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { Passkey } from '../../../contract/passkeys.ts';
import { MAX_PASSKEYS_PER_ACCOUNT, PASSKEY_NAME_MAX_LENGTH } from '../../../contract/passkeys.ts';
import { useListPasskeysQuery, useRemovePasskeyMutation, useRenamePasskeyMutation } from '../../api/passkeysApi.ts';
import { useSsoSettingsQuery } from '../../api/ssoApi.ts';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { SettingsSection } from '../../app/layout/SettingsSection.tsx';
import { useNotifier } from '../../app/notifier.ts';
import { formatDateTime } from '../../lib/folderDisplay.ts';
import { PASSKEY_TEXTS } from '../../lib/userTexts.ts';
import { selectCurrentUser } from '../auth/index.ts';
import { selectPrivateKey, usePrivateKeyUnlock } from '../keys/index.ts';
import { PasskeyConfirmDialog } from './PasskeyConfirmDialog.tsx';
import { addPasskey, type Confirmation } from './passkeyFlows.ts';
import { passkeysSupported } from './webauthn.ts';

type Editing = { kind: 'add' } | { kind: 'rename'; passkey: Passkey } | { kind: 'remove'; passkey: Passkey } | null;

function nameProblem(name: string): string | null {
  return name.trim() === '' ? PASSKEY_TEXTS.nameRequired : null;
}

/** Where the profile comes back to after signing in again at the provider. */
const PROFILE_PATH = '/profile';

/**
 * The profile's passkeys: list, add, rename, remove (hidden where the browser has no WebAuthn).
 * For an account without a password (single sign-on) a passkey unlocks the keys on /sso and
 * confirms; its copy of the private key is made from the key this session already unlocked.
 */
export function PasskeySection() {
  const user = useAppSelector(selectCurrentUser);
  const privateKey = useAppSelector(selectPrivateKey);
  const { requestPrivateKey } = usePrivateKeyUnlock();
  const ssoName = useSsoSettingsQuery(undefined, { skip: user?.has_password !== false }).data?.sso?.name ?? null;
  const dispatch = useAppDispatch();
  const cryptoPool = useCryptoPool();
  const notify = useNotifier();
  const supported = passkeysSupported();
  const { data } = useListPasskeysQuery(undefined, { skip: !supported || !user });
  const [rename] = useRenamePasskeyMutation();
  const [remove] = useRemovePasskeyMutation();
  const [editing, setEditing] = useState<Editing>(null);
  const [name, setName] = useState('');

  if (!user || !supported) return null;
  const passkeys = data?.passkeys ?? [];
  const full = passkeys.length >= MAX_PASSKEYS_PER_ACCOUNT;
  const withoutPassword = !user.has_password;
  // Its confirmation names the provider: shown once the server has said which (never a password field).
  if (withoutPassword && ssoName === null) return null;
  const spki = user.public_key_spki;
  // No password to confirm with: a passkey, or a fresh sign-in at the provider (the server's rule).
  const sso = (keySource: Confirmation['keySource']) =>
    withoutPassword && ssoName !== null ? { name: ssoName, returnTo: PROFILE_PATH, confirmation: (): Confirmation => ({ keySource }) } : null;
  const sessionSource: Confirmation['keySource'] = withoutPassword && privateKey && spki ? { kind: 'session', privateKey, expectedSpki: spki } : null;

  function open(next: Editing) {
    // The new passkey's copy is made from the session's key: unlocked first (on /sso, which
    // comes back here), where an account without a password has it locked.
    if (next?.kind === 'add' && withoutPassword && !privateKey && spki) {
      void requestPrivateKey();
      return;
    }
    setName(next?.kind === 'rename' ? next.passkey.name : '');
    setEditing(next);
  }

  const nameField = (
    <TextField
      label={PASSKEY_TEXTS.name}
      helperText={PASSKEY_TEXTS.nameHint}
      value={name}
      onChange={(event) => setName(event.target.value)}
      slotProps={{ htmlInput: { maxLength: PASSKEY_NAME_MAX_LENGTH } }}
      required
      fullWidth
      autoFocus
    />
  );

  return (
    <SettingsSection
      title={PASSKEY_TEXTS.sectionTitle}
      description={withoutPassword && ssoName !== null ? PASSKEY_TEXTS.sectionDescriptionSso(ssoName) : PASSKEY_TEXTS.sectionDescription}
    >
      <Stack spacing={2}>
        {passkeys.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {PASSKEY_TEXTS.none}
          </Typography>
        ) : (
          <List disablePadding aria-label={PASSKEY_TEXTS.sectionTitle}>
            {passkeys.map((passkey) => (
              <ListItem key={passkey.id} divider disableGutters sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
                <Box sx={{ flex: '1 1 14rem', minWidth: 0 }}>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                    <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{passkey.name}</Typography>
                    <Chip
                      size="small"
                      variant={passkey.unlocks_keys ? 'filled' : 'outlined'}
                      color={passkey.unlocks_keys ? 'success' : 'default'}
                      label={passkey.unlocks_keys ? PASSKEY_TEXTS.unlocksKeys : withoutPassword ? PASSKEY_TEXTS.confirmOnly : PASSKEY_TEXTS.signInOnly}
                    />
                  </Stack>
                  <Typography variant="body2" color="text.secondary">
                    {PASSKEY_TEXTS.usage(formatDateTime(passkey.created_at), passkey.last_used_at ? formatDateTime(passkey.last_used_at) : null)}
                  </Typography>
                </Box>
                <Stack direction="row" spacing={1}>
                  <Button size="small" onClick={() => open({ kind: 'rename', passkey })} aria-label={PASSKEY_TEXTS.renameNamed(passkey.name)}>
                    {PASSKEY_TEXTS.rename}
                  </Button>
                  <Button size="small" color="error" onClick={() => open({ kind: 'remove', passkey })} aria-label={PASSKEY_TEXTS.removeNamed(passkey.name)}>
                    {PASSKEY_TEXTS.remove}
                  </Button>
                </Stack>
              </ListItem>
            ))}
          </List>
        )}
        {full ? (
          <Typography variant="body2" color="text.secondary">
            {PASSKEY_TEXTS.limitReached}
          </Typography>
        ) : (
          <Box>
            <Button variant="contained" onClick={() => open({ kind: 'add' })}>
              {PASSKEY_TEXTS.add}
            </Button>
          </Box>
        )}
      </Stack>
      {editing?.kind === 'add' && (
        <PasskeyConfirmDialog
          title={PASSKEY_TEXTS.add}
          submitLabel={PASSKEY_TEXTS.confirmWithPassword}
          validate={() => nameProblem(name)}
          canUsePasskey={passkeys.length > 0}
          sso={sso(sessionSource)}
          onClose={() => setEditing(null)}
          onConfirmed={async (confirmation) => {
            // An account without a password: the session's key, whichever way it confirmed.
            const source = sessionSource ? { keySource: sessionSource } : confirmation;
            const added = await addPasskey({ dispatch, pool: cryptoPool }, name.trim(), source, user);
            if (added.unlocksKeys) notify.success(PASSKEY_TEXTS.added(added.name));
            else notify.warning(withoutPassword ? PASSKEY_TEXTS.addedConfirmOnly(added.name) : PASSKEY_TEXTS.addedSignInOnly(added.name));
          }}
        >
          {nameField}
        </PasskeyConfirmDialog>
      )}
      {editing?.kind === 'rename' && (
        <PasskeyConfirmDialog
          title={PASSKEY_TEXTS.renameTitle}
          submitLabel={PASSKEY_TEXTS.save}
          validate={() => nameProblem(name)}
          canUsePasskey
          sso={sso(null)}
          onClose={() => setEditing(null)}
          onConfirmed={async () => {
            await rename({ id: editing.passkey.id, name: name.trim() }).unwrap();
            notify.success(PASSKEY_TEXTS.renamed);
          }}
        >
          {nameField}
        </PasskeyConfirmDialog>
      )}
      {editing?.kind === 'remove' && (
        <PasskeyConfirmDialog
          title={PASSKEY_TEXTS.removeTitle}
          submitLabel={PASSKEY_TEXTS.remove}
          canUsePasskey
          sso={sso(null)}
          onClose={() => setEditing(null)}
          onConfirmed={async () => {
            await remove({ id: editing.passkey.id }).unwrap();
            notify.success(PASSKEY_TEXTS.removed);
          }}
        >
          <Typography>{PASSKEY_TEXTS.removeQuestion(editing.passkey.name)}</Typography>
        </PasskeyConfirmDialog>
      )}
    </SettingsSection>
  );
}
