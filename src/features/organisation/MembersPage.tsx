// The members page of organisation admins: invite, the invitations sent, every account. A member
// who opens it gets the server's refusal (the dashboard shows the link to admins only).
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { useAppSelector } from '../../app/hooks.ts';
import { BackToDashboardLink } from '../../app/layout/BackLink.tsx';
import { PageHeader } from '../../app/layout/PageHeader.tsx';
import { useOrgRecoveryStatusQuery } from '../../api/orgRecoveryApi.ts';
import { MEMBERS_TEXTS as T, ORG_RECOVERY_TEXTS } from '../../lib/userTexts.ts';
import { selectCurrentUser } from '../auth/index.ts';
import { AccountsSection } from './AccountsSection.tsx';
import { InvitationsSection } from './InvitationsSection.tsx';
import { InviteForm } from './InviteForm.tsx';
import { OrgRecoverySection } from './OrgRecoverySection.tsx';

export function MembersPage() {
  const user = useAppSelector(selectCurrentUser);
  const recoveryOn = Boolean(useOrgRecoveryStatusQuery(undefined, { skip: user?.org_role !== 'admin' }).data?.key);
  return (
    <Stack sx={{ maxWidth: 960, mx: 'auto' }}>
      <PageHeader title={T.title} subtitle={recoveryOn ? ORG_RECOVERY_TEXTS.membersSubtitleOn : T.subtitle} back={<BackToDashboardLink />} />
      {user?.org_role !== 'admin' ? (
        <Alert severity="warning">{T.adminOnly}</Alert>
      ) : (
        <Stack spacing={3}>
          <InviteForm />
          <InvitationsSection />
          <AccountsSection />
          <OrgRecoverySection />
        </Stack>
      )}
    </Stack>
  );
}
