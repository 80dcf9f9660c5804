// Security headers (@fastify/helmet) with a Content-Security-Policy the app can live with:
// everything from our own origin; blob: for downloads and worker-made object URLs; WebAssembly
// compilation for hash-wasm ('wasm-unsafe-eval', not 'unsafe-eval'); data: images for the QR
// code; inline styles because MUI/emotion inject <style> elements at run time.
import helmet from '@fastify/helmet';
import { globalPlugin } from './global-plugin.ts';

export const securityHeadersPlugin = globalPlugin('security-headers', async (app) => {
  const https = app.config.cookieSecure;
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'blob:'],
        workerSrc: ["'self'", 'blob:'],
        frameSrc: ["'self'"],
        manifestSrc: ["'self'"],
        mediaSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // Only behind HTTPS: on plain http://localhost it would rewrite our own requests to https.
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // HSTS only makes sense when the site is served over HTTPS (COOKIE_SECURE=true says it is).
    strictTransportSecurity: https ? { maxAge: 15_552_000, includeSubDomains: false } : false,
    // The API is same-origin only.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    // Never framed, as frame-ancestors 'none' says (helmet's default SAMEORIGIN would contradict it
    // for browsers that only read X-Frame-Options).
    xFrameOptions: { action: 'deny' },
  });
});
