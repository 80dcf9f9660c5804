// The activity feature's door: the files screen's folder section (the Activity screen is a route).
export { FolderActivitySection } from './FolderActivitySection.tsx';
