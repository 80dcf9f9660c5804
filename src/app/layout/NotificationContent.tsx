// How a notification looks and what a screen reader hears of it. notistack's own content gives
// every notification the same id="notistack-snackbar" (two at once share it), makes each one
// role="alert" (a success interrupts whatever is being read), and paints the variants in colours
// of its own (white on #2196f3 or #43a047: 3.1–3.3:1). This one takes the colours from the theme's
// palette, has no id at all, and interrupts only for errors and warnings; the rest are announced
// politely (role="status").
import Box from '@mui/material/Box';
import { SnackbarContent, type CustomContentProps, type VariantType } from 'notistack';
import { forwardRef } from 'react';

const URGENT: ReadonlySet<VariantType> = new Set(['error', 'warning']);

/** The class of a notification's message; specs and unit tests find the text by it. */
export const NOTIFICATION_MESSAGE_CLASS = 'notification-message';

export const NotificationContent = forwardRef<HTMLDivElement, CustomContentProps>(function NotificationContent(props, ref) {
  const { message, action, iconVariant, variant, hideIconVariant, style, className, id } = props;
  const icon = hideIconVariant ? null : iconVariant[variant];
  return (
    <SnackbarContent
      ref={ref}
      role={URGENT.has(variant) ? 'alert' : 'status'}
      style={style}
      // notistack's class names stay, so its layout (and code that looks for a variant) still applies.
      className={['notistack-MuiContent', `notistack-MuiContent-${variant}`, className].filter(Boolean).join(' ')}
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          flexWrap: 'wrap',
          width: '100%',
          py: 0.75,
          pl: icon ? 2.5 : 2,
          pr: 2,
          borderRadius: '4px',
          color: '#ffffff',
          bgcolor: variant === 'default' ? 'grey.900' : `${variant}.main`,
          typography: 'body2',
          boxShadow: 6,
        }}
      >
        <Box className={NOTIFICATION_MESSAGE_CLASS} sx={{ display: 'flex', alignItems: 'center', py: 1 }}>
          {icon}
          {message}
        </Box>
        {action && (
          <Box sx={{ display: 'flex', alignItems: 'center', ml: 'auto', pl: 2, mr: -1 }}>{typeof action === 'function' ? action(id) : action}</Box>
        )}
      </Box>
    </SnackbarContent>
  );
});
