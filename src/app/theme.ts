import { createTheme } from '@mui/material/styles';

// Calm and businesslike: deep navy primary (the PWA's theme colour), teal accent, light grey canvas
// with white outlined cards. System fonts: nothing to download, native feel on every platform.
export const brandColors = {
  navy: '#1e3a5f',
  navyDark: '#152a45',
  teal: '#2a7f7a',
  canvas: '#f5f7fa',
  border: '#e3e8ef',
} as const;

export const theme = createTheme({
  palette: {
    primary: { main: brandColors.navy, dark: brandColors.navyDark, contrastText: '#ffffff' },
    secondary: { main: brandColors.teal, contrastText: '#ffffff' },
    background: { default: brandColors.canvas, paper: '#ffffff' },
    text: { primary: '#1f2933', secondary: '#52606d' },
    divider: brandColors.border,
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Liberation Sans", sans-serif',
    h1: { fontSize: '1.875rem', fontWeight: 650, letterSpacing: '-0.01em' },
    h2: { fontSize: '1.125rem', fontWeight: 650 },
    h3: { fontSize: '1rem', fontWeight: 650 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: { root: { paddingInline: 18 } },
    },
    MuiAppBar: { defaultProps: { elevation: 0 } },
    MuiPaper: { styleOverrides: { outlined: { borderColor: brandColors.border } } },
    MuiTextField: { defaultProps: { fullWidth: true } },
    MuiAlert: { styleOverrides: { root: { alignItems: 'center' } } },
    MuiDialog: { defaultProps: { fullWidth: true, maxWidth: 'xs' } },
  },
});
