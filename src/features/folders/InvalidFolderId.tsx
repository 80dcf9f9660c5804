import Alert from '@mui/material/Alert';

export function InvalidFolderId() {
  return <Alert severity="error">Invalid Folder ID</Alert>;
}
