// The e-mail and password form of /login: POST /api/auth/login as JSON. The session cookie it sets
// is HttpOnly; this script never reads, keeps or stores a token (not in localStorage, not anywhere).
'use strict';

(function signInWithPassword() {
  const form = document.getElementById('password-form');
  const problem = document.getElementById('password-problem');
  if (!form || !problem) return;

  // The server already checked returnTo; the page checks again before it navigates, whatever the
  // attribute holds: a path with exactly one leading '/', still one once normalised, on this origin.
  const isLocalPath = (path) => path.startsWith('/') && !path.startsWith('//') && !/[\\\u0000-\u001f\u007f]/.test(path);
  const landingUrl = (value) => {
    const home = new URL('/', window.location.origin).href;
    if (typeof value !== 'string' || !isLocalPath(value)) return home;
    try {
      const url = new URL(value, window.location.origin);
      if (url.origin !== window.location.origin || !isLocalPath(url.pathname)) return home;
      return url.href;
    } catch {
      return home;
    }
  };

  const show = (message) => {
    problem.textContent = message;
    problem.hidden = false;
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    problem.hidden = true;
    const button = form.querySelector('button[type="submit"]');
    const fields = new FormData(form);
    if (button) button.disabled = true;
    try {
      const response = await fetch('/api/auth/login', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ email: fields.get('email'), password: fields.get('password') }),
      });
      if (response.ok) {
        window.location.assign(landingUrl(form.dataset.returnTo || '/'));
        return;
      }
      if (response.status === 401) show('Wrong e-mail or password.');
      else if (response.status === 429) show('Too many failed attempts: please wait and try again later.');
      else show('Signing in did not work. Please check the e-mail address and password.');
    } catch {
      show('The service cannot be reached. Please try again.');
    } finally {
      if (button) button.disabled = false;
    }
  });
})();
