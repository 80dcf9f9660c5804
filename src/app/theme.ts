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

// Colours that carry text (WCAG 1.4.3, 4.5:1): MUI's and notistack's defaults for warning, info and
// success, and the brand teal on the selected-row grey, fall short (3.1–4.1:1). These are
// the same hues, darkened just enough; docs/accessibility.md has the measured ratios.
const accessible = {
  teal: '#256f6a',
  warning: '#b45309',
  info: '#1565c0',
  success: '#2e7d32',
  error: '#d32f2f',
} as const;

// Borders that identify a control (WCAG 1.4.11, 3:1): MUI's outlined-input border (rgba(0,0,0,0.23),
// 1.7:1 on white) is too faint to find the field; this grey is 3.7:1 on white, 3.4:1 on the canvas.
const controlBorder = '#7b8794';

// The keyboard focus ring (WCAG 2.4.7, 2.4.11): a 2 px navy outline with a white band inside it, so
// it keeps at least 3:1 on the white and grey canvas (navy) and on the navy app bar (white).
const focusRing = {
  outline: `2px solid ${brandColors.navy}`,
  outlineOffset: 2,
  boxShadow: '0 0 0 2px #ffffff',
} as const;

/** WCAG 2.5.8: every pointer target at least 24 × 24 CSS px. */
export const MIN_TARGET_PX = 24;

export const theme = createTheme({
  palette: {
    primary: { main: brandColors.navy, dark: brandColors.navyDark, contrastText: '#ffffff' },
    secondary: { main: accessible.teal, contrastText: '#ffffff' },
    warning: { main: accessible.warning, contrastText: '#ffffff' },
    info: { main: accessible.info, contrastText: '#ffffff' },
    success: { main: accessible.success, contrastText: '#ffffff' },
    error: { main: accessible.error, contrastText: '#ffffff' },
    background: { default: brandColors.canvas, paper: '#ffffff' },
    text: { primary: '#1f2933', secondary: '#52606d' },
    divider: brandColors.border,
  },
  // The user's "reduce motion" setting is honoured (MUI's own support): spinners and indeterminate
  // bars stand still, ripples and fades are dropped. People with vestibular disorders ask for it,
  // and the progress text (bytes, rate, time left) says what the motion said.
  motion: { reducedMotion: 'system' },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Liberation Sans", sans-serif',
    // Smaller on phones, so a long German compound in a title ("Steuerunterlagen") fits a line whole.
    h1: { fontSize: '1.5rem', fontWeight: 650, letterSpacing: '-0.01em', '@media (min-width:600px)': { fontSize: '1.875rem' } },
    h2: { fontSize: '1.125rem', fontWeight: 650 },
    h3: { fontSize: '1rem', fontWeight: 650 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiCssBaseline: {
      styleOverrides: {
        // Text fields show focus with their own 2 px navy border; everything else gets the ring.
        ':focus-visible:not(input):not(textarea)': focusRing,
        // Checkboxes, radios and switches focus a hidden <input>, so :focus-visible never matches what
        // is seen; MUI marks the visible control (ButtonBase) with .Mui-focusVisible instead.
        '.MuiButtonBase-root.Mui-focusVisible': focusRing,
        // Long words (German compounds) break where the language allows, with the document's lang
        // (src/i18n/language.ts), and wrap whole otherwise: never between arbitrary letters.
        body: { hyphens: 'auto', overflowWrap: 'break-word' },
      },
    },
    // Status chips change colour when their state arrives (e.g. the key status: 'Checking...' then
    // 'Stored'); MUI fades the background over 300 ms, and meanwhile the white label sits on a pale
    // fill far below 4.5:1. The colour now changes at once.
    // A chip's label wraps instead of ending in "..." where it does not fit (a German status such
    // as "Schlüssel für Wiederherstellung hinterlegt" on a 390 px card): the chip grows in height.
    MuiChip: {
      styleOverrides: {
        root: { transition: 'none', height: 'auto', minHeight: 32, maxWidth: '100%' },
        sizeSmall: { minHeight: 24 },
        label: { whiteSpace: 'normal', overflowWrap: 'anywhere' },
      },
    },
    // Progress values arrive a few times a second (the upload's and download's progress flushes);
    // MUI eased the bar to each new value, so the bar was moving nearly all the time and the
    // compositor drew frames continuously through every transfer, on the cores the crypto workers
    // need. The bar now steps to each value: one frame per update (docs/operations.md, benchmarks).
    MuiLinearProgress: { styleOverrides: { bar1: { transition: 'none' } } },
    // The hint is a description, not the chip's name: MUI's default puts it in aria-label, which is
    // not allowed on the chip's role-less <div> (and replaces the visible label for screen readers).
    MuiTooltip: { defaultProps: { describeChild: true } },
    MuiOutlinedInput: {
      styleOverrides: {
        notchedOutline: { borderColor: controlBorder },
      },
    },
    // Text-styled buttons ('Enter password instead?') are targets of their own, not links in a sentence.
    MuiLink: { styleOverrides: { button: { minHeight: MIN_TARGET_PX } } },
    // Targets of at least 24 × 24 px (WCAG 2.5.8) wherever a layout squeezes them: a small table's
    // checkbox column takes every padding away from its checkboxes (20 × 20 px left).
    MuiCheckbox: { styleOverrides: { root: { minWidth: MIN_TARGET_PX, minHeight: MIN_TARGET_PX } } },
    MuiRadio: { styleOverrides: { root: { minWidth: MIN_TARGET_PX, minHeight: MIN_TARGET_PX } } },
    MuiIconButton: { styleOverrides: { root: { minWidth: MIN_TARGET_PX, minHeight: MIN_TARGET_PX } } },
    MuiTableSortLabel: { styleOverrides: { root: { minHeight: MIN_TARGET_PX } } },
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: { root: { paddingInline: 18 } },
    },
    MuiAppBar: { defaultProps: { elevation: 0 } },
    MuiPaper: { styleOverrides: { outlined: { borderColor: brandColors.border } } },
    MuiTextField: { defaultProps: { fullWidth: true } },
    MuiAlert: { styleOverrides: { root: { alignItems: 'center' } } },
    // Dialogs quote what users named (a folder title, a 90-character file name): a long word breaks
    // instead of widening the dialog past a phone's screen.
    MuiDialogTitle: { styleOverrides: { root: { overflowWrap: 'anywhere' } } },
    MuiDialogContentText: { styleOverrides: { root: { overflowWrap: 'anywhere' } } },
    MuiDialog: {
      defaultProps: { fullWidth: true, maxWidth: 'xs' },
      // On a phone MUI keeps 32 px around a dialog; 16 px leaves the content room to fit without
      // scrolling sideways (a 390 px screen gets a 358 px dialog instead of 326 px).
      styleOverrides: {
        paper: ({ theme: current }) => ({
          [current.breakpoints.down('sm')]: {
            margin: current.spacing(2),
            width: `calc(100% - ${current.spacing(4)})`,
            maxWidth: `calc(100% - ${current.spacing(4)})`,
            maxHeight: `calc(100% - ${current.spacing(4)})`,
          },
        }),
      },
    },
  },
});
