import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';

interface SettingsSectionProps {
  title: string;
  description?: ReactNode;
  /** Shown at the right of the title, e.g. a status chip. */
  aside?: ReactNode;
  children: ReactNode;
}

/** A titled card; a landmark region named by its title, so each section can be found by name. */
export function SettingsSection({ title, description, aside, children }: SettingsSectionProps) {
  const headingId = useId();
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ p: { xs: 3, sm: 4 } }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start', justifyContent: 'space-between', mb: description ? 0.5 : 2.5 }}>
        <Typography variant="h2" id={headingId}>
          {title}
        </Typography>
        {aside}
      </Stack>
      {description && (
        <Typography color="text.secondary" variant="body2" sx={{ mb: 3 }}>
          {description}
        </Typography>
      )}
      <Box>{children}</Box>
    </Paper>
  );
}
