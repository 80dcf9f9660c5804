import Alert from '@mui/material/Alert';
import { useIntl } from 'react-intl';
import { FOLDER_PAGE_MESSAGES } from '../../lib/userTexts.ts';

export function InvalidFolderId() {
  const intl = useIntl();
  return <Alert severity="error">{intl.formatMessage(FOLDER_PAGE_MESSAGES.invalidId)}</Alert>;
}
