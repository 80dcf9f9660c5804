import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState, type MouseEvent } from 'react';
import { useIntl } from 'react-intl';
import { LANGUAGES, chooseLanguage, type LanguageCode } from '../../i18n/language.ts';
import { LAYOUT_MESSAGES, LAYOUT_TEXTS } from '../../lib/userTexts.ts';
import { LanguageIcon } from '../icons.tsx';
import { useNotifier } from '../notifier.ts';

/**
 * The language switch in the header of every screen, signed in or not (the upload and download
 * pages too). Each language is named in itself, so a reader finds theirs whatever the page speaks.
 */
export function LanguageMenu({ onChosen }: { onChosen?: (code: LanguageCode) => void }) {
  const intl = useIntl();
  const notifier = useNotifier();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const currentName = LANGUAGES.find((language) => language.code === intl.locale)?.name ?? intl.locale;

  async function choose(code: LanguageCode) {
    setAnchor(null);
    try {
      await chooseLanguage(code, window.localStorage);
      onChosen?.(code);
    } catch {
      notifier.warning(LAYOUT_TEXTS.languageNotLoaded);
    }
  }

  return (
    <>
      <Button
        color="inherit"
        size="small"
        startIcon={<LanguageIcon fontSize="small" />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        aria-label={intl.formatMessage(LAYOUT_MESSAGES.languageMenu, { language: currentName })}
        onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
        sx={{ minHeight: 44, textTransform: 'none' }}
      >
        {intl.locale.toUpperCase()}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((language) => (
          <MenuItem
            key={language.code}
            lang={language.code}
            selected={language.code === intl.locale}
            onClick={() => void choose(language.code)}
            sx={{ minHeight: 44 }}
          >
            {language.name}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
