import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** The tidy stand-in for a screen whose feature has not landed yet. */
export function PlaceholderPanel({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 4, sm: 6 }, textAlign: 'center' }}>
      <Box sx={{ color: 'secondary.main', mb: 1.5, '& svg': { fontSize: 44 } }}>{icon}</Box>
      <Typography variant="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 460, mx: 'auto' }}>
        {children}
      </Typography>
    </Paper>
  );
}
