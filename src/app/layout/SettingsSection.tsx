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
      {/* The aside wraps under a title too long for one line beside it (a German compound on a phone). */}
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'flex-start', justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1, mb: description ? 0.5 : 2.5 }}>
        <Typography variant="h2" id={headingId} sx={{ minWidth: 0 }}>
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
