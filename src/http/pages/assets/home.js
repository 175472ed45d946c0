// The home page's buttons. Sign out: POST /api/auth/logout clears the HttpOnly session cookie.
// Link: POST /api/v1/me/connections/{provider} answers where to send the browser (the provider's
// login page); a form could not follow that redirect under the page's `form-action 'self'` policy.
// Unlink: DELETE /api/v1/me/connections/{provider}.
'use strict';

(function signOut() {
  const button = document.getElementById('sign-out');
  if (!button) return;
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await fetch('/api/auth/logout', { method: 'POST', credentials: 'same-origin' });
    } finally {
      window.location.assign('/login');
    }
  });
})();

(function connections() {
  const problem = document.getElementById('connections-problem');
  const show = (message) => {
    if (!problem) return;
    problem.textContent = message;
    problem.hidden = false;
  };
  const connectionUrl = (button) => `/api/v1/me/connections/${encodeURIComponent(button.dataset.provider || '')}`;
  const messageOf = async (response, fallback) => {
    try {
      const body = await response.json();
      return (body && body.error && body.error.message) || fallback;
    } catch {
      return fallback;
    }
  };

  for (const button of document.querySelectorAll('button.link-provider')) {
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        const response = await fetch(connectionUrl(button), { method: 'POST', credentials: 'same-origin', headers: { Accept: 'application/json' } });
        if (!response.ok) throw new Error(await messageOf(response, 'Linking the provider did not start. Please try again.'));
        const body = await response.json();
        window.location.assign(body.data.location);
      } catch (error) {
        show(error instanceof Error && error.message ? error.message : 'Linking the provider did not start. Please try again.');
        button.disabled = false;
      }
    });
  }

  for (const button of document.querySelectorAll('button.unlink-provider')) {
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        const response = await fetch(connectionUrl(button), { method: 'DELETE', credentials: 'same-origin' });
        if (response.status === 204 || response.status === 404) {
          window.location.assign('/');
          return;
        }
        show(await messageOf(response, 'Unlinking the provider did not work. Please try again.'));
      } catch {
        show('The service cannot be reached. Please try again.');
      }
      button.disabled = false;
    });
  }
})();
