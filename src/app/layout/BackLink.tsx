import { FormattedMessage } from 'react-intl';
import { ArrowBackIcon } from '../icons.tsx';
import { TextLink } from './links.tsx';
import { SHELL_MESSAGES } from './messages.ts';

export function BackToDashboardLink() {
  return (
    <TextLink to="/dashboard" underline="hover" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, fontWeight: 600 }}>
      <ArrowBackIcon sx={{ fontSize: 18 }} />
      <FormattedMessage {...SHELL_MESSAGES.backToDashboard} />
    </TextLink>
  );
}
