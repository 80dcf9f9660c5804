// Signed webhooks on the profile page (docs/api.md "Webhooks"): the endpoint URL, its signing
// secret (to copy into the receiver), "Send test event", and the last deliveries with their
// outcome, refreshed while any is still pending.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { describeApiError } from '../../api/errors.ts';
import { useDeleteWebhookMutation, useGetWebhookQuery, useSaveWebhookMutation, useSendTestEventMutation } from '../../api/webhooksApi.ts';
import { CopyTextButton } from '../../app/layout/CopyTextButton.tsx';
import { SettingsSection } from '../../app/layout/SettingsSection.tsx';
import { useNotifier } from '../../app/notifier.ts';
import { formatDateTime } from '../../lib/folderDisplay.ts';
import type { WebhookDeliveryView } from '../../../contract/webhooks.ts';
import { t } from '../../i18n/language.ts';
import { WEBHOOK_TEXTS } from '../../lib/userTexts.ts';
import { PROFILE_MESSAGES } from './messages.ts';

const POLL_WHILE_PENDING_MS = 3000;

function outcome(delivery: WebhookDeliveryView): string {
  if (delivery.status === 'delivered') return t(PROFILE_MESSAGES.webhookDelivered, { status: delivery.last_status_code });
  if (delivery.status === 'failed') return t(PROFILE_MESSAGES.webhookFailed, { error: delivery.last_error ?? t(PROFILE_MESSAGES.webhookUnknownError) });
  if (delivery.last_error === null) return t(PROFILE_MESSAGES.webhookSending);
  if (delivery.next_attempt_at) return t(PROFILE_MESSAGES.webhookRetryingAt, { error: delivery.last_error, when: formatDateTime(delivery.next_attempt_at) });
  return t(PROFILE_MESSAGES.webhookRetryingSoon, { error: delivery.last_error });
}

function Deliveries({ deliveries }: { deliveries: WebhookDeliveryView[] }) {
  const intl = useIntl();
  if (deliveries.length === 0) return <Typography color="text.secondary">{WEBHOOK_TEXTS.noDeliveries}</Typography>;
  return (
    <Box sx={{ overflowX: 'auto' }} tabIndex={0} aria-label={WEBHOOK_TEXTS.deliveries} role="region">
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{intl.formatMessage(PROFILE_MESSAGES.webhookEvent)}</TableCell>
            <TableCell>{intl.formatMessage(PROFILE_MESSAGES.webhookCreated)}</TableCell>
            <TableCell>{intl.formatMessage(PROFILE_MESSAGES.webhookAttempts)}</TableCell>
            <TableCell>{intl.formatMessage(PROFILE_MESSAGES.webhookOutcome)}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {deliveries.map((delivery) => (
            <TableRow key={delivery.id}>
              <TableCell>{delivery.event_type}</TableCell>
              <TableCell>{formatDateTime(delivery.created_at)}</TableCell>
              <TableCell>{delivery.attempts}</TableCell>
              <TableCell>
                <Chip
                  size="small"
                  variant="outlined"
                  color={delivery.status === 'delivered' ? 'success' : delivery.status === 'failed' ? 'error' : 'default'}
                  label={outcome(delivery)}
                />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

export function WebhookSection() {
  const intl = useIntl();
  const notify = useNotifier();
  const [pollingInterval, setPollingInterval] = useState(0);
  const { data, error: loadError } = useGetWebhookQuery(undefined, { pollingInterval });
  const [save, saving] = useSaveWebhookMutation();
  const [remove, removing] = useDeleteWebhookMutation();
  const [sendTest, testing] = useSendTestEventMutation();
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const busy = saving.isLoading || removing.isLoading || testing.isLoading;
  const endpoint = data?.endpoint ?? null;
  const shownUrl = url ?? endpoint?.url ?? '';

  const pending = data?.deliveries.some((delivery) => delivery.status === 'pending') ?? false;
  const wantedInterval = pending ? POLL_WHILE_PENDING_MS : 0;
  if (wantedInterval !== pollingInterval) setPollingInterval(wantedInterval);

  async function run(action: () => Promise<unknown>, success: string) {
    setError(null);
    try {
      await action();
      notify.success(success);
    } catch (cause) {
      setError(describeApiError(cause).message);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void run(async () => {
      await save({ url: shownUrl }).unwrap();
      setUrl(null);
    }, WEBHOOK_TEXTS.saved);
  }

  return (
    <SettingsSection title={WEBHOOK_TEXTS.title} description={WEBHOOK_TEXTS.description}>
      <Stack spacing={2.5}>
        {loadError !== undefined && <Alert severity="error">{describeApiError(loadError).message}</Alert>}
        {error !== null && <Alert severity="error">{error}</Alert>}
        <Stack component="form" direction={{ xs: 'column', sm: 'row' }} spacing={1.5} onSubmit={submit} noValidate aria-label={WEBHOOK_TEXTS.title}>
          <TextField
            label={WEBHOOK_TEXTS.url}
            name="webhook_url"
            type="url"
            // eslint-disable-next-line formatjs/no-literal-string-in-jsx -- an example address, the same in every language
            placeholder="https://example.com/hooks/sealdrop"
            value={shownUrl}
            disabled={busy}
            onChange={(event) => setUrl(event.target.value)}
            sx={{ flex: 1 }}
          />
          <Button type="submit" variant="contained" disabled={busy || shownUrl.trim() === ''} sx={{ alignSelf: { sm: 'center' }, whiteSpace: 'nowrap' }}>
            {WEBHOOK_TEXTS.save}
          </Button>
        </Stack>
        {endpoint !== null && (
          <>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
              <TextField
                label={WEBHOOK_TEXTS.secret}
                value={endpoint.secret}
                slotProps={{ htmlInput: { readOnly: true, style: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' } } }}
                sx={{ flex: 1 }}
              />
              <CopyTextButton
                text={endpoint.secret}
                label={intl.formatMessage(PROFILE_MESSAGES.webhookCopySecret)}
                failureMessage={intl.formatMessage(PROFILE_MESSAGES.webhookCopyFailed)}
              />
              <Button
                variant="outlined"
                disabled={busy}
                onClick={() => void run(() => save({ url: endpoint.url, rotate_secret: true }).unwrap(), WEBHOOK_TEXTS.saved)}
              >
                {WEBHOOK_TEXTS.newSecret}
              </Button>
            </Stack>
            <Stack direction="row" spacing={1.5}>
              <Button variant="outlined" disabled={busy} onClick={() => void run(() => sendTest().unwrap(), WEBHOOK_TEXTS.testQueued)}>
                {WEBHOOK_TEXTS.test}
              </Button>
              <Button variant="outlined" color="error" disabled={busy} onClick={() => void run(() => remove().unwrap(), WEBHOOK_TEXTS.removed)}>
                {WEBHOOK_TEXTS.remove}
              </Button>
            </Stack>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
              {WEBHOOK_TEXTS.deliveries}
            </Typography>
            <Deliveries deliveries={data?.deliveries ?? []} />
          </>
        )}
      </Stack>
    </SettingsSection>
  );
}
