// The admin's side of download links, for the folder files screen.
export { ActiveDownloadLinksSection } from './ActiveDownloadLinksSection.tsx';
export { CreateDownloadLinkButton, type CreateDownloadLinkButtonProps } from './CreateDownloadLinkButton.tsx';
export type { LinkableFile } from './linkKeys.ts';
