// A setting that is off until its box is ticked: the checkbox, a hint under it (one for each state
// when they differ), and the fields it needs, shown while it is ticked. The folder form, the
// create-link dialog and the storage limits are built from it.
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Collapse from '@mui/material/Collapse';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export interface OptionalSettingProps {
  /** The checkbox's form name. */
  name: string;
  label: string;
  checked: boolean;
  disabled?: boolean;
  onToggle(checked: boolean): void;
  /** Under the label while ticked, and while unticked unless `hintWhenOff` is given. */
  hint?: ReactNode;
  /** Under the label while unticked: what leaving it off means. */
  hintWhenOff?: ReactNode;
  /** The fields the setting needs, shown (and mounted) only while it is ticked. */
  children?: ReactNode;
}

export function OptionalSetting({ name, label, checked, disabled, onToggle, hint, hintWhenOff, children }: OptionalSettingProps) {
  const shownHint = checked || hintWhenOff === undefined ? hint : hintWhenOff;
  return (
    <div>
      <FormControlLabel control={<Checkbox name={name} checked={checked} disabled={disabled} onChange={(event) => onToggle(event.target.checked)} />} label={label} />
      {shownHint !== undefined && (
        <Typography variant="body2" color="text.secondary" sx={{ ml: 4, mt: -0.5 }}>
          {shownHint}
        </Typography>
      )}
      {children !== undefined && (
        <Collapse in={checked} unmountOnExit>
          <Box sx={{ ml: { sm: 4 }, pt: 3 }}>{children}</Box>
        </Collapse>
      )}
    </div>
  );
}
