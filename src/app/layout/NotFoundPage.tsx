import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { HomeIcon } from '../icons.tsx';
import { useNotFoundTitle } from './DocumentTitle.tsx';
import { ButtonLink } from './links.tsx';

export function NotFoundPage() {
  useNotFoundTitle();
  return (
    <Paper variant="outlined" sx={{ maxWidth: 520, mx: 'auto', mt: { xs: 2, sm: 6 }, p: { xs: 4, sm: 6 }, textAlign: 'center' }}>
      <Typography variant="h1" sx={{ mb: 1.5 }}>
        404 Not Found
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        The page you are looking for does not exist.
      </Typography>
      <ButtonLink to="/" variant="contained" startIcon={<HomeIcon />}>
        Go Home
      </ButtonLink>
    </Paper>
  );
}
