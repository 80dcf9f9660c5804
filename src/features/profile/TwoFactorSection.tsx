import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useStartTwoFactorSetupMutation } from '../../api/authApi.ts';
import type { TwoFactorSetupResponse } from '../../api/types.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { SettingsSection } from '../../app/layout/SettingsSection.tsx';
import { selectCurrentUser } from '../auth/index.ts';
import { useNotifier } from '../../app/notifier.ts';
import { FormFeedback, type Feedback } from '../../app/layout/FormFeedback.tsx';
import { PROFILE_MESSAGES } from './messages.ts';
import { TwoFactorDisablePanel } from './TwoFactorDisablePanel.tsx';
import { TwoFactorSetupPanel } from './TwoFactorSetupPanel.tsx';

/**
 * Two-factor states (spec section 4): disabled -> setup started (secret + QR) -> code verified ->
 * enabled; 'Cancel Setup' returns to disabled; enabled -> disabled via password and confirmation.
 * Enabled/disabled come from the user; only the pending setup lives here.
 */
export function TwoFactorSection() {
  const intl = useIntl();
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
    setFeedback({ severity: 'success', message: intl.formatMessage(PROFILE_MESSAGES.twoFactorNowEnabled) });
    notify.success(intl.formatMessage(PROFILE_MESSAGES.twoFactorEnabledToast));
  }

  function handleDisabled() {
    setFeedback({ severity: 'info', message: intl.formatMessage(PROFILE_MESSAGES.twoFactorHasBeenDisabled) });
    notify.success(intl.formatMessage(PROFILE_MESSAGES.twoFactorDisabledToast));
  }

  return (
    <SettingsSection
      title={intl.formatMessage(PROFILE_MESSAGES.twoFactorTitle)}
      description={intl.formatMessage(PROFILE_MESSAGES.twoFactorDescription)}
      aside={
        <Chip
          label={intl.formatMessage(enabled ? PROFILE_MESSAGES.twoFactorEnabledChip : PROFILE_MESSAGES.twoFactorDisabledChip)}           color={enabled ? 'success' : 'default'}
          size="small"
          variant={enabled ? 'filled' : 'outlined'}
        />
      }
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
              {intl.formatMessage(PROFILE_MESSAGES.twoFactorOff)}
            </Typography>
            <Button variant="contained" onClick={handleEnable} disabled={starting}>
              {intl.formatMessage(starting ? PROFILE_MESSAGES.twoFactorStarting : PROFILE_MESSAGES.twoFactorEnable)}
            </Button>
          </Box>
        )}
      </Box>
    </SettingsSection>
  );
}
