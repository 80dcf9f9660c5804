import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Stack from '@mui/material/Stack';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useIntl } from 'react-intl';
import { CopyTextButton } from '../../app/layout/CopyTextButton.tsx';
import { CREATE_LINK_MESSAGES } from '../../lib/userTexts.ts';
import { LINK_MESSAGES as messages } from './messages.ts';

export interface ReadyLink {
  /** The address to share; for a link without password it carries the keys in its fragment. */
  url: string;
  /** SECRET: the link password, shown once so the admin can pass it on; null without password. */
  password: string | null;
}

const monospace = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: '0.85rem' };

/** 'Download Link Ready' (spec section 2): the URL with Copy, and the password warning. */
export function DownloadLinkReadyDialog({ link: current, onClose }: { link: ReadyLink | null; onClose(): void }) {
  const intl = useIntl();
  const titleId = useId();
  // Keep showing the link while the dialog fades out after Close, then forget it (it may hold keys).
  const [shown, setShown] = useState<ReadyLink | null>(current);
  if (current !== null && current !== shown) setShown(current);
  const link = current ?? shown;
  return (
    <Dialog
      open={current !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      slotProps={{ transition: { onExited: () => setShown(null) } }}
    >
      <DialogTitle id={titleId}>{intl.formatMessage(messages.readyTitle)}</DialogTitle>
      {link && (
        <DialogContent sx={{ pt: 0 }}>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {intl.formatMessage(link.password === null ? messages.readyKeysInLink : messages.readyNoKeys)}
          </Typography>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
            <TextField
              label={intl.formatMessage(messages.readyLink)}
              value={link.url}
              size="small"
              multiline
              maxRows={4}
              slotProps={{ htmlInput: { readOnly: true, style: monospace }, input: { readOnly: true } }}
              onFocus={(event) => event.target.select()}
            />
            <CopyTextButton text={link.url} label={intl.formatMessage(messages.readyCopy)} ariaLabel={intl.formatMessage(messages.readyCopyLink)} failureMessage={intl.formatMessage(messages.readyCopyLinkFailed)} variant="contained" />
          </Stack>
          {link.password !== null && (
            <>
              <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mt: 2.5 }}>
                <TextField
                  label={intl.formatMessage(messages.readyPassword)}
                  value={link.password}
                  size="small"
                  slotProps={{ htmlInput: { readOnly: true, style: monospace }, input: { readOnly: true } }}
                  onFocus={(event) => event.target.select()}
                />
                <CopyTextButton text={link.password} label={intl.formatMessage(messages.readyCopy)} ariaLabel={intl.formatMessage(messages.readyCopyPassword)} failureMessage={intl.formatMessage(messages.readyCopyPasswordFailed)} />
              </Stack>
              <Alert severity="warning" sx={{ mt: 2.5 }}>
                {CREATE_LINK_MESSAGES.sharePasswordSeparately}
              </Alert>
            </>
          )}
        </DialogContent>
      )}
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button variant="outlined" onClick={onClose}>
          {intl.formatMessage(messages.readyClose)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
