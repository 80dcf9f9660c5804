import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { DownloadIcon, FilterIcon } from '../../app/icons.tsx';
import { toolbarMessages } from './messages.ts';
import type { CheckState } from './selection.ts';

interface FilesToolbarProps {
  selectedCount: number;
  selectableCount: number;
  allState: CheckState;
  neverDownloadedOnly: boolean;
  /** Busy flags (a download or a delete running) disable the toolbar. */
  disabled: boolean;
  onToggleAll(): void;
  onToggleFilter(): void;
  onDownloadSelected(): void;
  onDownloadAll(): void;
  /** Absent for a team folder's reader, who may not delete files. */
  onDeleteSelected?: () => void;
  /** The download-links feature's 'Create Download Link...' button (src/features/links). */
  linkAction?: ReactNode;
  /** The 'Export Encrypted' button (ExportEncryptedButton). */
  exportAction?: ReactNode;
}

/** Spec section 2: select-all with 'n / total selected', the filter toggle and the bulk actions. */
export function FilesToolbar(props: FilesToolbarProps) {
  const intl = useIntl();
  const { selectedCount, selectableCount, allState, neverDownloadedOnly, disabled } = props;
  return (
    <Stack
      role="toolbar"
      aria-label={intl.formatMessage(toolbarMessages.toolbar)}
      direction={{ xs: 'column', md: 'row' }}
      spacing={1.5}
      useFlexGap
      sx={{
        alignItems: { md: 'center' },
        justifyContent: 'space-between',
        px: 1.5,
        py: 1.25,
        flexWrap: 'wrap',
        // Compact buttons, so the whole toolbar fits one line on a laptop screen.
        '& .MuiButton-root': { px: 1.5, whiteSpace: 'nowrap' },
      }}
    >
      {/* Wraps too: at 320 px (WCAG 1.4.10) the filter button no longer fits beside the count. */}
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Checkbox
          checked={allState === 'checked'}
          indeterminate={allState === 'indeterminate'}
          onChange={props.onToggleAll}
          disabled={disabled || selectableCount === 0}
          slotProps={{ input: { 'aria-label': intl.formatMessage(toolbarMessages.selectAll) } }}
        />
        <Typography variant="body2" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums', minWidth: 88 }} aria-live="polite">
          {intl.formatMessage(toolbarMessages.selectedCount, { selected: selectedCount, total: selectableCount })}
        </Typography>
        <Divider orientation="vertical" flexItem sx={{ mx: 0.5 }} />
        <Button
          size="small"
          variant={neverDownloadedOnly ? 'contained' : 'outlined'}
          color={neverDownloadedOnly ? 'secondary' : 'primary'}
          startIcon={<FilterIcon />}
          aria-pressed={neverDownloadedOnly}
          onClick={props.onToggleFilter}
          disabled={disabled}
        >
          {intl.formatMessage(neverDownloadedOnly ? toolbarMessages.showAll : toolbarMessages.neverDownloaded)}
        </Button>
      </Stack>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        {props.linkAction && <Box sx={{ display: 'contents' }}>{props.linkAction}</Box>}
        <Button size="small" variant="outlined" startIcon={<DownloadIcon />} onClick={props.onDownloadSelected} disabled={disabled}>
          {intl.formatMessage(toolbarMessages.downloadSelected)}
        </Button>
        <Button size="small" variant="contained" startIcon={<DownloadIcon />} onClick={props.onDownloadAll} disabled={disabled || selectableCount === 0}>
          {intl.formatMessage(toolbarMessages.downloadAll, { count: selectableCount })}
        </Button>
        {props.exportAction}
        {props.onDeleteSelected && (
          <Button size="small" variant="outlined" color="error" onClick={props.onDeleteSelected} disabled={disabled || selectedCount === 0}>
            {intl.formatMessage(toolbarMessages.deleteSelected)}
          </Button>
        )}
      </Stack>
    </Stack>
  );
}
