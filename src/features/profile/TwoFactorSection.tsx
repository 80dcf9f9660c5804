import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useStartTwoFactorSetupMutation } from '../../api/authApi.ts';
import type { TwoFactorSetupResponse } from '../../api/types.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { SettingsSection } from '../../app/layout/SettingsSection.tsx';
import { selectCurrentUser } from '../auth/index.ts';
import { useNotifier } from '../../app/notifier.ts';
import { FormFeedback, type Feedback } from '../../app/layout/FormFeedback.tsx';
import { TwoFactorDisablePanel } from './TwoFactorDisablePanel.tsx';
import { TwoFactorSetupPanel } from './TwoFactorSetupPanel.tsx';

/**
 * Two-factor states (spec section 4): disabled -> setup started (secret + QR) -> code verified ->
 * enabled; 'Cancel Setup' returns to disabled; enabled -> disabled via password and confirmation.
 * Enabled/disabled come from the user; only the pending setup lives here.
 */
export function TwoFactorSection() {
  const user = useAppSelector(selectCurrentUser);
  const notify = useNotifier();
  const [startSetup, { isLoading: starting }] = useStartTwoFactorSetupMutation();
  const [setup, setSetup] = useState<TwoFactorSetupResponse | null>(null);
  const [feedback, setFeedback] = useState<Feedback | null>(null);

  if (!user) return null;
  const enabled = user.is_2fa_enabled;

  async function handleEnable() {
    setFeedback(null);
    try {
      setSetup(await startSetup().unwrap());
    } catch (cause) {
      setFeedback({ severity: 'error', message: notify.error(cause).message });
    }
  }

  function handleEnabled() {
    setSetup(null);
    setFeedback({ severity: 'success', message: 'Two-factor authentication is now enabled.' });
    notify.success('Two-factor authentication enabled.');
  }

  function handleDisabled() {
    setFeedback({ severity: 'info', message: 'Two-factor authentication has been disabled.' });
    notify.success('Two-factor authentication disabled.');
  }

  return (
    <SettingsSection
      title="Two-Factor Authentication"
      description="Protect your account with a 6-digit code from an authenticator app in addition to your password."
      aside={<Chip label={enabled ? 'Enabled' : 'Disabled'} color={enabled ? 'success' : 'default'} size="small" variant={enabled ? 'filled' : 'outlined'} />}
    >
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}>
        <FormFeedback feedback={feedback} />
        {enabled && <TwoFactorDisablePanel onDisabled={handleDisabled} />}
        {!enabled && setup && (
          <TwoFactorSetupPanel
            setup={setup}
            onEnabled={handleEnabled}
            onCancel={() => {
              setSetup(null);
              setFeedback(null);
            }}
          />
        )}
        {!enabled && !setup && (
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
            <Typography variant="body2" color="text.secondary">
              Two-factor authentication is currently off.
            </Typography>
            <Button variant="contained" onClick={handleEnable} disabled={starting}>
              {starting ? 'Starting...' : 'Enable 2FA'}
            </Button>
          </Box>
        )}
      </Box>
    </SettingsSection>
  );
}
