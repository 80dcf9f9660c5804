// Glyphs of the files screen (paths from Material Icons, Apache-2.0), like app/layout/icons.tsx.
import SvgIcon, { type SvgIconProps } from '@mui/material/SvgIcon';

function glyph(path: string, name: string) {
  const Icon = (props: SvgIconProps) => (
    <SvgIcon {...props}>
      <path d={path} />
    </SvgIcon>
  );
  Icon.displayName = name;
  return Icon;
}

export const DownloadIcon = glyph('M5 20h14v-2H5zM19 9h-4V3H9v6H5l7 7z', 'DownloadIcon');
export const FilterIcon = glyph('M10 18h4v-2h-4zM3 6v2h18V6zm3 7h12v-2H6z', 'FilterIcon');
export const FolderGlyph = glyph('M10 4H4c-1.1 0-1.99.9-1.99 2L2 18c0 1.1.9 2 2 2h16c1.1 0 2-.9 2-2V8c0-1.1-.9-2-2-2h-8z', 'FolderGlyph');
export const FolderOpenGlyph = glyph(
  'M20 6h-8l-2-2H4c-1.1 0-1.99.9-1.99 2L2 18c0 1.1.9 2 2 2h16c1.1 0 2-.9 2-2V8c0-1.1-.9-2-2-2m0 12H4V8h16z',
  'FolderOpenGlyph',
);
export const FileGlyph = glyph(
  'M14 2H6c-1.1 0-1.99.9-1.99 2L4 20c0 1.1.89 2 1.99 2H18c1.1 0 2-.9 2-2V8zm2 16H8v-2h8zm0-4H8v-2h8zm-3-5V3.5L18.5 9z',
  'FileGlyph',
);
export const ChevronRightIcon = glyph('M10 6 8.59 7.41 13.17 12l-4.58 4.59L10 18l6-6z', 'ChevronRightIcon');
export const ExpandMoreIcon = glyph('M16.59 8.59 12 13.17 7.41 8.59 6 10l6 6 6-6z', 'ExpandMoreIcon');
