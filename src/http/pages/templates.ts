import type { User } from '../../domain/model';

export interface LoginPageModel {
  providers: ReadonlyArray<{ id: string; name: string }>;
  returnTo: string;
  cancelled: boolean;
  failed: boolean;
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

// No inline script or style: the pages pass the service's own Content-Security-Policy.
const layout = (title: string, body: string, script: string): string => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(title)} · agent fleet</title>
    <link rel="stylesheet" href="/assets/pages.css">
    <script src="/assets/${script}" defer></script>
  </head>
  <body>
    <main>
${body}
    </main>
  </body>
</html>
`;

export function renderLoginPage({ providers, returnTo, cancelled, failed }: LoginPageModel): string {
  const query = returnTo === '/' ? '' : `?returnTo=${encodeURIComponent(returnTo)}`;
  const messages = [
    cancelled ? '<p class="notice" role="status" id="cancelled-message">Sign-in was cancelled. You can try again, or sign in another way.</p>' : '',
    failed ? '<p class="problem" role="alert" id="failed-message">Signing in with the provider did not work. Please try again; if it keeps failing, sign in another way.</p>' : '',
  ].filter(Boolean);
  const buttons = providers.map(
    (provider) =>
      `<li><a class="button provider" href="/api/auth/oauth/${encodeURIComponent(provider.id)}${query}">Sign in with ${escapeHtml(provider.name)}</a></li>`,
  );
  return layout(
    'Sign in',
    `      <h1>Sign in to agent fleet</h1>
      ${messages.join('\n      ')}
      ${buttons.length > 0 ? `<ul class="providers" aria-label="Sign in with a provider">\n        ${buttons.join('\n        ')}\n      </ul>\n      <p class="separator">or with your e-mail and password</p>` : ''}
      <form id="password-form" action="/api/auth/login" method="post" data-return-to="${escapeHtml(returnTo)}">
        <label>E-mail <input type="email" name="email" autocomplete="username" required></label>
        <label>Password <input type="password" name="password" autocomplete="current-password" minlength="8" required></label>
        <p class="problem" role="alert" id="password-problem" hidden></p>
        <button type="submit">Sign in</button>
      </form>`,
    'login.js',
  );
}

export function renderHomePage(user: User): string {
  return layout(
    'Home',
    `      <h1>agent fleet</h1>
      <p id="signed-in-as">Signed in as <strong>${escapeHtml(user.name)}</strong> (${escapeHtml(user.email)})</p>
      <button type="button" id="sign-out">Sign out</button>`,
    'home.js',
  );
}
