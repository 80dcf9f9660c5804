import { useEffect } from 'react';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Toolbar from '@mui/material/Toolbar';
import { Link, Outlet } from '@tanstack/react-router';
import { LAYOUT_TEXTS } from '../../lib/userTexts.ts';
import { useLanguage } from '../../i18n/LanguageProvider.tsx';
import { ShieldIcon } from '../icons.tsx';
import { LanguageMenu } from './LanguageMenu.tsx';
import { useSetAccountLanguageMutation } from '../../api/authApi.ts';
import { selectAuthStatus, selectCurrentUser } from '../../features/auth/index.ts';
import { accountLanguageToApply, chooseLanguage } from '../../i18n/language.ts';
import { useAppSelector } from '../hooks.ts';
import { useNotifier } from '../notifier.ts';
import { DocumentTitle } from './DocumentTitle.tsx';
import { TextLink } from './links.tsx';
import { OfflineNotice } from './OfflineNotice.tsx';
import { SealdropLogo } from './SealdropLogo.tsx';
import { UpdatePrompt } from './UpdatePrompt.tsx';

/**
 * The outer layout of every screen: header with the logo, main content area. Notifications appear
 * at the top right, above the header's right end (notistack's anchor, see AppProviders).
 */
export function AppLayout() {
  useLanguage();
  const signedIn = useAppSelector(selectAuthStatus) === 'authenticated';
  const accountLanguage = useAppSelector(selectCurrentUser)?.language;
  // A browser with no language of its own opens in the one the account chose elsewhere.
  useEffect(() => {
    const language = accountLanguageToApply(accountLanguage, window.localStorage);
    if (language) void chooseLanguage(language, window.localStorage).catch(() => undefined);
  }, [accountLanguage]);
  const [setAccountLanguage] = useSetAccountLanguageMutation();
  const notifier = useNotifier();
  // Signed in, the choice is also the account's, for its e-mails; the page has switched already.
  const rememberForAccount = (language: string) => {
    if (!signedIn) return;
    setAccountLanguage({ language })
      .unwrap()
      .catch(() => notifier.warning(LAYOUT_TEXTS.languageNotSaved));
  };
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <DocumentTitle />
      <AppBar position="static" color="primary" component="header">
        <Container maxWidth="lg">
          <Toolbar disableGutters sx={{ gap: 2 }}>
            <Box
              component={Link}
              to="/"
              aria-label={LAYOUT_TEXTS.homeLink}
              sx={{ color: 'inherit', textDecoration: 'none', display: 'flex', alignItems: 'center' }}
            >
              <SealdropLogo />
            </Box>
            <Box sx={{ flexGrow: 1 }} />
            <Chip
              icon={<ShieldIcon fontSize="small" />}
              label={LAYOUT_TEXTS.encryptedBadge}
              size="small"
              sx={{
                display: { xs: 'none', sm: 'inline-flex' },
                color: 'inherit',
                bgcolor: 'rgba(255,255,255,0.12)',
                '& .MuiChip-icon': { color: 'inherit' },
              }}
            />
            <LanguageMenu onChosen={rememberForAccount} />
          </Toolbar>
        </Container>
      </AppBar>
      <OfflineNotice />
      <UpdatePrompt />
      <Box component="main" sx={{ flexGrow: 1, py: { xs: 3, sm: 5 } }}>
        <Container maxWidth="lg">
          <Outlet />
        </Container>
      </Box>
      <Box component="footer" sx={{ py: 1 }}>
        <Container maxWidth="lg">
          {/* A block 44 px high: a target a finger can hit on a phone (WCAG 2.5.8 asks at least 24 px). */}
          <TextLink to="/about" variant="body2" sx={{ display: 'inline-flex', alignItems: 'center', minHeight: 44 }}>
            {LAYOUT_TEXTS.aboutLink}
          </TextLink>
        </Container>
      </Box>
    </Box>
  );
}
