import Button from '@mui/material/Button';
import { useEffect, useRef, useState } from 'react';
import { UserFacingError } from '../../lib/userFacingError.ts';
import { CheckIcon, CopyIcon } from '../folders/folderIcons.tsx';
import { useNotifier } from '../notifications/useNotifier.ts';

/** How long 'Copied!' stays after a copy (spec section 9). */
export const COPIED_INDICATOR_MS = 2000;

/** Copies `text` to the clipboard; reads 'Copied!' for 2 s afterwards. */
export function CopyLinkButton({ text, label = 'Copy Link' }: { text: string; label?: string }) {
  const notify = useNotifier();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      notify.error(new UserFacingError('copy-failed', 'Failed to copy link to clipboard.'));
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
  }

  return (
    <Button
      size="small"
      variant="outlined"
      color={copied ? 'success' : 'primary'}
      startIcon={copied ? <CheckIcon /> : <CopyIcon />}
      onClick={copy}
      aria-live="polite"
      sx={{ whiteSpace: 'nowrap', minWidth: 100, px: 1.25, '& .MuiButton-startIcon': { mr: 0.75 } }}
    >
      {copied ? 'Copied!' : label}
    </Button>
  );
}
