// MUI components that navigate through the router (typed `to`, client-side transitions).
import Button, { type ButtonProps } from '@mui/material/Button';
import MuiLink, { type LinkProps as MuiLinkProps } from '@mui/material/Link';
import { createLink } from '@tanstack/react-router';

function AnchorButton(props: ButtonProps<'a'>) {
  return <Button component="a" {...props} />;
}

function Anchor(props: MuiLinkProps) {
  return <MuiLink {...props} />;
}

export const ButtonLink = createLink(AnchorButton);
export const TextLink = createLink(Anchor);
