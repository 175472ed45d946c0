import type { User } from '../../model';
import { escapeHtml } from '../escape-html';
import type { PageLinks } from '../page-links';

export interface LoginPageModel {
  providers: ReadonlyArray<{ id: string; name: string }>;
  returnTo: string;
  cancelled: boolean;
  failed: boolean;
  /** Why the third-party sign-in failed, as the callback named it (any text: only known ones are shown). */
  reason?: string | undefined;
}

export interface HomePageModel {
  user: User;
  /** Every configured provider, and any linked one no longer configured. */
  connections: ReadonlyArray<{ id: string; name: string; linked: boolean; linkedAs: string | null | undefined }>;
  /** Whether a link can go and leave a way to sign in (a password or another link). */
  canUnlink: boolean;
  /** After a link flow: cancelled, or failed with the callback's reason. */
  notice?: { kind: 'cancelled' } | { kind: 'failed'; reason: string } | undefined;
}

const SIGN_IN_FAILURES: Record<string, string> = {
  account_exists:
    'An account with this e-mail address already exists here. Sign in with your e-mail and password first, then link the provider from your home page.',
  email_not_verified:
    'The provider has not verified your e-mail address, so no account can be created from it. Verify it at the provider, or sign up with e-mail and password.',
  missing_email: 'The provider did not share your e-mail address. Allow it at the provider and try again, or sign in another way.',
  invalid_claims: 'The provider sent account details this service cannot accept (such as an invalid e-mail address). Please sign in another way.',
};
const DEFAULT_SIGN_IN_FAILURE = 'Signing in with the provider did not work. Please try again; if it keeps failing, sign in another way.';

const LINK_FAILURES: Record<string, string> = {
  account_conflict: 'That provider account is already linked to another user of this service: nothing was linked.',
  already_linked: 'Your account is already linked to another account at that provider: unlink it first.',
  link_session_mismatch: 'You were no longer signed in as the same user when the provider sent you back: nothing was linked.',
  invalid_claims: 'The provider sent account details this service cannot accept: nothing was linked.',
};
const DEFAULT_LINK_FAILURE = 'Linking the provider did not work: nothing was linked. Please try again.';

export interface SignUpPageModel {
  returnTo: string;
}

// No inline script or style: the pages pass the service's own Content-Security-Policy.
const layout = (links: PageLinks, page: { title: string; body: string; script: string; kind?: 'form' | 'console' }): string => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(page.title)} · agent fleet</title>
    <link rel="icon" type="image/svg+xml" href="${escapeHtml(links.asset('favicon.svg'))}">
    <link rel="stylesheet" href="${escapeHtml(links.asset('pages.css'))}">
    <script src="${escapeHtml(links.asset(page.script))}" defer></script>
  </head>
  <body class="${page.kind ?? 'form'}-page">
${page.body}
  </body>
</html>
`;

const returnToQuery = (returnTo: string): string => (returnTo === '/' ? '' : `?returnTo=${encodeURIComponent(returnTo)}`);

export function renderLoginPage({ providers, returnTo, cancelled, failed, reason }: LoginPageModel, links: PageLinks): string {
  const query = returnToQuery(returnTo);
  const messages = [
    cancelled ? '<p class="notice" role="status" id="cancelled-message">Sign-in was cancelled. You can try again, or sign in another way.</p>' : '',
    failed ? `<p class="problem" role="alert" id="failed-message">${escapeHtml(knownMessage(SIGN_IN_FAILURES, reason) ?? DEFAULT_SIGN_IN_FAILURE)}</p>` : '',
  ].filter(Boolean);
  const buttons = providers.map(
    (provider) =>
      `<li><a class="button provider" href="${escapeHtml(links.signInWith(provider.id))}${query}">Sign in with ${escapeHtml(provider.name)}</a></li>`,
  );
  return layout(links, {
    title: 'Sign in',
    script: 'login.js',
    body: `    <main>
      <h1>Sign in to agent fleet</h1>
      ${messages.join('\n      ')}
      ${buttons.length > 0 ? `<ul class="providers" aria-label="Sign in with a provider">\n        ${buttons.join('\n        ')}\n      </ul>\n      <p class="separator">or with your e-mail and password</p>` : ''}
      <form id="password-form" action="${escapeHtml(links.passwordSignIn)}" method="post" data-return-to="${escapeHtml(returnTo)}">
        <label>E-mail <input type="email" name="email" autocomplete="username" required></label>
        <label>Password <input type="password" name="password" autocomplete="current-password" minlength="8" required></label>
        <p class="problem" role="alert" id="password-problem" hidden></p>
        <button type="submit">Sign in</button>
      </form>
      <p class="aside">New here? <a href="${escapeHtml(links.signUp)}${query}">Create an account</a></p>
    </main>`,
  });
}

export function renderSignUpPage({ returnTo }: SignUpPageModel, links: PageLinks): string {
  return layout(links, {
    title: 'Create an account',
    script: 'login.js',
    body: `    <main>
      <h1>Create an account</h1>
      <form id="sign-up-form" method="post" data-return-to="${escapeHtml(returnTo)}">
        <label>Name <input type="text" name="name" autocomplete="name" maxlength="100" required></label>
        <label>E-mail <input type="email" name="email" autocomplete="email" required></label>
        <label>Password <input type="password" name="password" autocomplete="new-password" minlength="8" maxlength="1024" required aria-describedby="password-hint"></label>
        <p class="hint" id="password-hint">At least 8 characters; a password that is easy to guess is refused.</p>
        <p class="problem" role="alert" id="sign-up-problem" hidden></p>
        <button type="submit">Create account</button>
      </form>
      <p class="aside">Already have an account? <a href="${escapeHtml(links.login)}${returnToQuery(returnTo)}">Sign in</a></p>
    </main>`,
  });
}

export function renderHomePage({ user, connections, canUnlink, notice }: HomePageModel, links: PageLinks): string {
  const message =
    notice === undefined
      ? ''
      : notice.kind === 'cancelled'
        ? '<p class="notice" role="status" id="link-message">Linking was cancelled: nothing was linked.</p>'
        : `<p class="problem" role="alert" id="link-message">${escapeHtml(knownMessage(LINK_FAILURES, notice.reason) ?? DEFAULT_LINK_FAILURE)}</p>`;
  const items = connections.map((connection) => {
    const id = escapeHtml(connection.id);
    const name = escapeHtml(connection.name);
    if (!connection.linked) {
      return `<li><span>${name}</span> <button type="button" class="link-provider" data-provider="${id}">Link ${name}</button></li>`;
    }
    const as = connection.linkedAs ? ` as ${escapeHtml(connection.linkedAs)}` : '';
    const unlink = canUnlink ? ` <button type="button" class="unlink-provider" data-provider="${id}">Unlink ${name}</button>` : '';
    return `<li><span>${name}: linked${as}</span>${unlink}</li>`;
  });
  const connectionsSection =
    items.length === 0
      ? ''
      : `
      <h3>Sign-in providers</h3>
      ${message}
      <ul class="connections" aria-label="Sign-in providers">
        ${items.join('\n        ')}
      </ul>
      ${canUnlink ? '' : '<p class="hint">Your only way to sign in is a linked provider, so it cannot be unlinked.</p>'}
      <p class="problem" role="alert" id="connections-problem" hidden></p>`;
  return layout(links, {
    title: 'Fleet console',
    script: 'console.js',
    kind: 'console',
    body: `    <header class="top-bar">
      <a class="brand" href="/">agent fleet</a>
      <nav aria-label="Documentation">
        <a href="${escapeHtml(links.swaggerUi)}">API docs</a>
        <a href="${escapeHtml(links.clientReadme)}">Client README</a>
      </nav>
      <p id="signed-in-as">Signed in as <strong>${escapeHtml(user.name)}</strong> (${escapeHtml(user.email)})</p>
      <button type="button" id="sign-out">Sign out</button>
    </header>
    <main id="console" data-user-id="${escapeHtml(user.id)}" data-role="${escapeHtml(user.role)}">
      <p class="loading" role="status">Loading your fleet…</p>
      <noscript><p class="problem">The console needs JavaScript. The API itself is described in the API docs.</p></noscript>
    </main>
${connectionsSection === '' ? '' : `    <section class="account" aria-labelledby="account-title">
      <h2 id="account-title">Your account</h2>${connectionsSection}
    </section>`}`,
  });
}

/** Only the service's own texts for the reasons it knows: a reason from the query is never echoed. */
function knownMessage(messages: Record<string, string>, reason: string | undefined): string | undefined {
  return reason !== undefined && Object.hasOwn(messages, reason) ? messages[reason] : undefined;
}
