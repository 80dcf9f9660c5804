import Button from '@mui/material/Button';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { useCreateDownloadLinkMutation } from '../../api/linksApi.ts';
import { UserFacingError } from '../../lib/userFacingError.ts';
import { useCryptoPool } from '../../app/cryptoPool.ts';
import { useNotifier } from '../../app/notifier.ts';
import type { CreateLinkChoices } from './createLinkForm.ts';
import { CreateDownloadLinkDialog } from './CreateDownloadLinkDialog.tsx';
import { DownloadLinkReadyDialog, type ReadyLink } from './DownloadLinkReadyDialog.tsx';
import { LinkIcon } from '../../app/icons.tsx';
import { prepareDownloadLink, readyLinkUrl, type LinkableFile } from './linkKeys.ts';
import { CREATE_LINK_MESSAGES } from '../../lib/userTexts.ts';
import type { FileKeyOpener } from '../team/index.ts';
import { LINK_MESSAGES as messages } from './messages.ts';

export interface CreateDownloadLinkButtonProps {
  folderId: number;
  /** The selected file records (GET /folders/{id}/files); may be empty (the button then warns). */
  files: readonly LinkableFile[];
  /** The files screen's unlock, shared with its downloads, then the opener of the folder's file keys (null: cancelled). */
  requestKeyOpener(): Promise<FileKeyOpener | null>;
  /** After a link was created: the screen reloads its files (the links list refreshes by itself). */
  onCreated?(): void;
  disabled?: boolean;
}

type Step = { kind: 'idle' } | { kind: 'form'; files: readonly LinkableFile[]; openKey: FileKeyOpener; busy: boolean } | { kind: 'ready'; link: ReadyLink };

/**
 * 'Create Download Link...' (spec sections 4 and 5): with no selection it warns; otherwise the
 * private key is unlocked first (the 'Login Password Required' dialog if needed), then the
 * create-link dialog opens; on success 'Download Link Ready' shows the link.
 */
export function CreateDownloadLinkButton({ folderId, files, requestKeyOpener, onCreated, disabled = false }: CreateDownloadLinkButtonProps) {
  const intl = useIntl();
  const notify = useNotifier();
  const cryptoPool = useCryptoPool();
  const [createLink] = useCreateDownloadLinkMutation();
  const [step, setStep] = useState<Step>({ kind: 'idle' });

  async function start() {
    if (files.length === 0) {
      notify.warning(CREATE_LINK_MESSAGES.noSelection);
      return;
    }
    const selected = [...files];
    const openKey = await requestKeyOpener();
    if (openKey) setStep({ kind: 'form', files: selected, openKey, busy: false });
  }

  async function create(choices: CreateLinkChoices) {
    if (step.kind !== 'form') return;
    setStep({ ...step, busy: true });
    try {
      const prepared = await prepareDownloadLink(cryptoPool(), step.openKey, step.files, choices);
      const created = await createLink({ folderId, body: prepared.request }).unwrap();
      setStep({ kind: 'ready', link: { url: readyLinkUrl(created.full_url, prepared.fragment), password: choices.password } });
      onCreated?.();
    } catch (error) {
      // The spec's one text for this failure; the cause goes to the console (never keys or passwords).
      console.error('Creating the download link failed:', error instanceof Error ? error.name : 'request error');
      notify.error(new UserFacingError('create-link-failed', CREATE_LINK_MESSAGES.createFailed));
      setStep({ ...step, busy: false });
    }
  }

  return (
    <>
      <Button size="small" variant="outlined" startIcon={<LinkIcon />} onClick={start} disabled={disabled}>
        {intl.formatMessage(messages.createButton)}
      </Button>
      <CreateDownloadLinkDialog
        open={step.kind === 'form'}
        fileNames={step.kind === 'form' ? step.files.map((file) => file.original_filename) : []}
        busy={step.kind === 'form' && step.busy}
        onCancel={() => setStep({ kind: 'idle' })}
        onSubmit={create}
      />
      <DownloadLinkReadyDialog link={step.kind === 'ready' ? step.link : null} onClose={() => setStep({ kind: 'idle' })} />
    </>
  );
}
