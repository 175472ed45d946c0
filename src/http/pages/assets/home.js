// The sign-out button of the home page: POST /api/auth/logout clears the HttpOnly session cookie.
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
