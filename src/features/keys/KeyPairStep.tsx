import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { KEYS_UI } from './messages.ts';

interface KeyPairStepProps {
  number: number;
  title: string;
  done: boolean;
  required?: boolean;
  children: ReactNode;
  action: ReactNode;
}

/** One numbered step of the 'New Key Pair Generated' modal. */
export function KeyPairStep({ number, title, done, required, children, action }: KeyPairStepProps) {
  const intl = useIntl();
  return (
    <Box
      component="li"
      aria-label={title}
      sx={{
        listStyle: 'none',
        display: 'flex',
        gap: 2,
        alignItems: 'flex-start',
        p: 2,
        border: 1,
        borderColor: done ? 'success.light' : 'divider',
        borderRadius: 2,
        bgcolor: done ? 'rgba(46, 125, 50, 0.04)' : 'background.paper',
      }}
    >
      <Box
        aria-hidden
        sx={{
          flex: '0 0 28px',
          height: 28,
          borderRadius: '50%',
          display: 'grid',
          placeItems: 'center',
          fontSize: 14,
          fontWeight: 700,
          color: '#fff',
          bgcolor: done ? 'success.main' : 'primary.main',
        }}
      >
        {/* eslint-disable-next-line formatjs/no-literal-string-in-jsx -- a check mark in place of the step's number, hidden from screen readers */}
        {done ? '✓' : number}
      </Box>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 0.25 }}>
          <Typography variant="h3" component="h3">
            {title}
          </Typography>
          {required && <Chip label={intl.formatMessage(KEYS_UI.stepRequired)} size="small" color="error" variant="outlined" />}
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {children}
        </Typography>
        {action}
      </Box>
    </Box>
  );
}
