import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { PRODUCT_NAME } from '../../lib/userTexts.ts';

/** The padlock mark: the same drawing as public/favicon.svg and the PWA icons. */
export function SealdropMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="#2a7f7a" />
      <path d="M11 14.5v-3.2a5 5 0 0 1 10 0v3.2" fill="none" stroke="#ffffff" strokeWidth="2.6" strokeLinecap="round" />
      <rect x="7.5" y="14" width="17" height="12" rx="2.8" fill="#ffffff" />
      <circle cx="16" cy="19" r="1.9" fill="#1e3a5f" />
      <rect x="15.1" y="19.6" width="1.8" height="3.6" rx="0.9" fill="#1e3a5f" />
    </svg>
  );
}

export function SealdropLogo() {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25 }}>
      <SealdropMark />
      <Typography component="span" sx={{ fontSize: '1.25rem', fontWeight: 700, letterSpacing: '0.01em', color: 'inherit' }}>
        {PRODUCT_NAME}
      </Typography>
    </Box>
  );
}
