import TextField from '@mui/material/TextField';
import { useId } from 'react';
import { SORT_LABELS } from '../../lib/userTexts.ts';

export type SortDirection = 'asc' | 'desc';

export interface SortChoice<K extends string> {
  key: K;
  order: SortDirection;
}

interface SortSelectProps<K extends string> {
  /** The sortable columns, with the names their headers carry on a wide screen. */
  columns: ReadonlyArray<{ key: K; label: string }>;
  value: SortChoice<K>;
  onChange(value: SortChoice<K>): void;
}

const separator = '|';

/**
 * The phone layouts' sort control: where a list is shown as cards or with fewer columns, the
 * column headers that sort it are gone, so one select offers every column in both directions.
 * A native select: the phone's own picker, large targets, read correctly by screen readers.
 */
export function SortSelect<K extends string>({ columns, value, onChange }: SortSelectProps<K>) {
  const id = useId();
  return (
    <TextField
      id={id}
      select
      size="small"
      label={SORT_LABELS.control}
      value={`${value.key}${separator}${value.order}`}
      onChange={(event) => {
        const [key, order] = event.target.value.split(separator) as [K, SortDirection];
        onChange({ key, order });
      }}
      slotProps={{ select: { native: true } }}
    >
      {columns.flatMap(({ key, label }) =>
        (['asc', 'desc'] as const).map((order) => (
          <option key={`${key}${order}`} value={`${key}${separator}${order}`}>
            {order === 'asc' ? SORT_LABELS.ascending(label) : SORT_LABELS.descending(label)}
          </option>
        )),
      )}
    </TextField>
  );
}
