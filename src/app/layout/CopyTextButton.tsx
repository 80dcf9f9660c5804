import Button from '@mui/material/Button';
import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { UserFacingError } from '../../lib/userFacingError.ts';
import { useNotifier } from '../notifier.ts';
import { CheckIcon, CopyIcon } from '../icons.tsx';
import { SHELL_MESSAGES } from './messages.ts';

/** How long 'Copied!' stays after a copy (spec section 9). */
export const COPIED_INDICATOR_MS = 2000;

interface CopyTextButtonProps {
  text: string;
  label: string;
  /** The spec's 'Failed to copy {x}.' text for this value. */
  failureMessage: string;
  /** Accessible name when the visible label alone is ambiguous (several copy buttons on a screen). */
  ariaLabel?: string;
  variant?: 'outlined' | 'contained';
}

/** Copies `text`; reads 'Copied!' for 2 s (spec section 9), or toasts the failure. */
export function CopyTextButton({ text, label, failureMessage, ariaLabel, variant = 'outlined' }: CopyTextButtonProps) {
  const intl = useIntl();
  const notify = useNotifier();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      notify.error(new UserFacingError('copy-failed', failureMessage));
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
  }

  return (
    <Button
      size="small"
      variant={variant}
      color={copied ? 'success' : 'primary'}
      startIcon={copied ? <CheckIcon /> : <CopyIcon />}
      onClick={copy}
      aria-label={ariaLabel}
      aria-live="polite"
      sx={{ whiteSpace: 'nowrap', minWidth: 96, px: 1.25, flexShrink: 0, '& .MuiButton-startIcon': { mr: 0.75 } }}
    >
      {copied ? intl.formatMessage(SHELL_MESSAGES.copied) : label}
    </Button>
  );
}
