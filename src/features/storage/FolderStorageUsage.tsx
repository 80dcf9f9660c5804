// One folder's storage against its limits (the dashboard's Storage column): the bytes and the
// files in words, a bar for the bytes when there is a limit, and "Nearly full" / "Full" said in
// words beside the colour. A component of its own so the dashboard's layout can place it anywhere.
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { Folder } from '../../api/types.ts';
import { STORAGE_TEXTS } from '../../lib/userTexts.ts';
import { fullerLevel, usageLevel, usedPercent, type UsageLevel } from './usageLevel.ts';

const BAR_COLOR: Record<UsageLevel, 'primary' | 'warning' | 'error'> = {
  unlimited: 'primary',
  ok: 'primary',
  'nearly-full': 'warning',
  full: 'error',
};

interface FolderStorageUsageProps {
  folder: Pick<Folder, 'title' | 'used_bytes' | 'used_files' | 'storage_limit_bytes' | 'file_limit'>;
}

export function FolderStorageUsage({ folder }: FolderStorageUsageProps) {
  const bytesText = STORAGE_TEXTS.bytesOf(folder.used_bytes, folder.storage_limit_bytes);
  const filesText = STORAGE_TEXTS.filesOf(folder.used_files, folder.file_limit);
  const bytesLevel = usageLevel(folder.used_bytes, folder.storage_limit_bytes);
  const level = fullerLevel(bytesLevel, usageLevel(folder.used_files, folder.file_limit));
  const percent = usedPercent(folder.used_bytes, folder.storage_limit_bytes);
  return (
    <Box sx={{ minWidth: 112, maxWidth: 150 }} data-testid="folder-storage">
      <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        {bytesText}
      </Typography>
      {percent !== null && (
        <LinearProgress
          variant="determinate"
          value={percent}
          color={BAR_COLOR[bytesLevel]}
          aria-label={STORAGE_TEXTS.usageBarLabel(folder.title)}
          aria-valuetext={bytesText}
          sx={{ my: 0.5, height: 6, borderRadius: 3 }}
        />
      )}
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', fontVariantNumeric: 'tabular-nums' }}>
        {filesText}
      </Typography>
      {(level === 'full' || level === 'nearly-full') && (
        <Typography variant="caption" sx={{ display: 'block', fontWeight: 650, color: level === 'full' ? 'error.main' : 'warning.main' }}>
          {level === 'full' ? STORAGE_TEXTS.full : STORAGE_TEXTS.nearlyFull}
        </Typography>
      )}
    </Box>
  );
}
