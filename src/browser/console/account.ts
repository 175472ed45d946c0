// The page's account controls, rendered by the server: sign out, and link or unlink a provider.
import { api, messageOf } from '../api';

export function wireAccount(): void {
  const signOut = document.getElementById('sign-out');
  if (signOut instanceof HTMLButtonElement) {
    signOut.addEventListener('click', () => {
      signOut.disabled = true;
      api
        .POST('/api/auth/logout')
        .catch(() => undefined)
        .finally(() => window.location.assign('/login'));
    });
  }

  const problem = document.getElementById('connections-problem');
  const show = (message: string) => {
    if (!problem) return;
    problem.textContent = message;
    problem.hidden = false;
  };
  for (const button of document.querySelectorAll<HTMLButtonElement>('button.link-provider')) {
    button.addEventListener('click', async () => {
      button.disabled = true;
      // The answer names where to send the browser (the provider's login page): a form could not
      // follow that redirect under the page's `form-action 'self'` policy.
      const { data, error, response } = await api
        .POST('/api/v1/me/connections/{provider}', { params: { path: { provider: button.dataset['provider'] ?? '' } }, headers: { Accept: 'application/json' } })
        .catch((failure: unknown) => ({ data: undefined, error: failure, response: undefined }));
      if (response?.ok && data) {
        window.location.assign(data.data.location);
        return;
      }
      show(messageOf(error, 'Linking the provider did not start. Please try again.'));
      button.disabled = false;
    });
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>('button.unlink-provider')) {
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        const { response, error } = await api.DELETE('/api/v1/me/connections/{provider}', { params: { path: { provider: button.dataset['provider'] ?? '' } } });
        if (response.status === 204 || response.status === 404) {
          window.location.assign('/');
          return;
        }
        show(messageOf(error, 'Unlinking the provider did not work. Please try again.'));
      } catch (failure) {
        show(messageOf(failure, 'Unlinking the provider did not work. Please try again.'));
      }
      button.disabled = false;
    });
  }
}
