// The About page's texts (docs/security.md, "The code the server serves").
import { defineMessages } from '../../i18n/defineMessages.ts';

export const ABOUT_MESSAGES = defineMessages({
  title: { id: 'about.page.title', defaultMessage: 'About Sealdrop' },
  subtitle: { id: 'about.page.subtitle', defaultMessage: 'End-to-end encrypted file exchange: files are encrypted in your browser before they are uploaded.' },
  codeHeading: { id: 'about.build.heading', defaultMessage: 'The code you are running' },
  version: { id: 'about.build.version', defaultMessage: 'Version: {version}' },
  versionLoading: { id: 'about.build.versionLoading', defaultMessage: '...', description: 'Stands for the version while it is being read' },
  versionUnknown: { id: 'about.build.versionUnknown', defaultMessage: 'unknown', description: 'Stands for the version when it cannot be read' },
  checked: {
    id: 'about.build.checked',
    defaultMessage:
      'Checked just now: {matching} of the {checked} cached files match the list ({listed} files listed; the others, such as source maps and the service worker itself, are not cached).',
  },
  digestExplained: {
    id: 'about.build.digestExplained',
    defaultMessage:
      'The build digest is the SHA-256 of the list of every file of the build this app was installed with; the app checks its cached files against that list. Compare it with the digest your organisation publishes for this version, or run {command} from a build of the same version. The installed app keeps this code until you accept an update; a new version shows its digest before you do.',
    description: 'command: a command line, shown as code',
  },
  digestLimits: {
    id: 'about.build.digestLimits',
    defaultMessage:
      'A matching digest tells you about your copy only: a server can send different code to other people, and the first visit trusts what the server sent then.',
  },
});
