// Request body formats the API accepts besides JSON: HTML-form bodies (the login route takes
// form fields). An empty JSON body counts as no body, so a client that sets the JSON content type
// on a body-less POST (logout, 2FA setup) is not refused.
import { globalPlugin } from './global-plugin.ts';

const FORM_BODY_LIMIT = 64 * 1024;

export const bodyParsersPlugin = globalPlugin('body-parsers', async (app) => {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => {
      const fields: Record<string, string> = Object.create(null);
      for (const [key, value] of new URLSearchParams(body as string)) fields[key] = value;
      done(null, fields);
    },
  );

  const defaultJsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') {
      done(null, undefined);
      return;
    }
    defaultJsonParser(request, body as string, done);
  });
});
