// The invite form of the members page: address, optional name, role.
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import type { OrgRole } from '../../../contract/organisation.ts';
import { useInviteMutation } from '../../api/orgApi.ts';
import { FormFeedback, type Feedback } from '../../app/layout/FormFeedback.tsx';
import { SettingsSection } from '../../app/layout/SettingsSection.tsx';
import { useNotifier } from '../../app/notifier.ts';
import { MEMBERS_TEXTS as T } from '../../lib/userTexts.ts';

export function InviteForm() {
  const notify = useNotifier();
  const [invite, { isLoading }] = useInviteMutation();
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [role, setRole] = useState<OrgRole>('member');
  const [feedback, setFeedback] = useState<Feedback | null>(null);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    setFeedback(null);
    try {
      const invitation = await invite({ email: email.trim(), display_name: displayName.trim() || null, org_role: role }).unwrap();
      setFeedback({ severity: 'success', message: T.invited(invitation.email) });
      setEmail('');
      setDisplayName('');
      setRole('member');
    } catch (cause) {
      setFeedback({ severity: 'error', message: notify.error(cause).message });
    }
  }

  return (
    <SettingsSection title={T.inviteTitle} description={T.inviteIntro}>
      <Stack component="form" spacing={2} onSubmit={(event) => void handleSubmit(event)} noValidate>
        <FormFeedback feedback={feedback} />
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <TextField label={T.emailLabel} type="email" required value={email} onChange={(event) => setEmail(event.target.value)} autoComplete="off" sx={{ flex: 2 }} />
          <TextField label={T.displayNameLabel} value={displayName} onChange={(event) => setDisplayName(event.target.value)} autoComplete="off" sx={{ flex: 2 }} />
          <TextField select label={T.roleLabel} value={role} onChange={(event) => setRole(event.target.value as OrgRole)} sx={{ flex: 1, minWidth: 180 }}>
            <MenuItem value="member">{T.roleMember}</MenuItem>
            <MenuItem value="admin">{T.roleAdmin}</MenuItem>
          </TextField>
        </Stack>
        <div>
          <Button type="submit" variant="contained" disabled={isLoading || email.trim() === ''}>
            {isLoading ? T.inviting : T.inviteButton}
          </Button>
        </div>
      </Stack>
    </SettingsSection>
  );
}
