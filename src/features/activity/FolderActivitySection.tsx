// The files screen's 'Folder activity': the folder's latest log entries and a link to the whole log
// filtered to this folder.
import { ButtonLink } from '../../app/layout/links.tsx';
import { SettingsSection } from '../../app/layout/SettingsSection.tsx';
import { ActivityList } from './ActivityList.tsx';
import { ACTIVITY_TEXTS } from '../../lib/userTexts.ts';

const LATEST = 10;

export function FolderActivitySection({ folderId }: { folderId: number }) {
  return (
    <SettingsSection
      title={ACTIVITY_TEXTS.folderTitle}
      aside={
        <ButtonLink to="/activity" search={{ folder_id: folderId }} variant="text" size="small">
          {ACTIVITY_TEXTS.viewAll}
        </ButtonLink>
      }
    >
      <ActivityList filters={{ folderId }} pageSize={LATEST} label={ACTIVITY_TEXTS.folderTitle} />
    </SettingsSection>
  );
}
