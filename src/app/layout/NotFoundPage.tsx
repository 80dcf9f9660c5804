import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { FormattedMessage } from 'react-intl';
import { notFoundTitle } from '../../lib/userTexts.ts';
import { HomeIcon } from '../icons.tsx';
import { useNotFoundTitle } from './DocumentTitle.tsx';
import { ButtonLink } from './links.tsx';
import { SHELL_MESSAGES } from './messages.ts';

export function NotFoundPage() {
  useNotFoundTitle();
  return (
    <Paper variant="outlined" sx={{ maxWidth: 520, mx: 'auto', mt: { xs: 2, sm: 6 }, p: { xs: 4, sm: 6 }, textAlign: 'center' }}>
      <Typography variant="h1" sx={{ mb: 1.5 }}>
        {notFoundTitle()}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        <FormattedMessage {...SHELL_MESSAGES.notFoundText} />
      </Typography>
      <ButtonLink to="/" variant="contained" startIcon={<HomeIcon />}>
        <FormattedMessage {...SHELL_MESSAGES.goHome} />
      </ButtonLink>
    </Paper>
  );
}
