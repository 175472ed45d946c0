// The forms of /login and /sign-up. Signing in sets the HttpOnly session cookie; this script never
// reads, keeps or stores a token (not in localStorage, not anywhere).
import { api, landingUrl, messageOf, retryText } from './api';

function formNamed(id: string): { form: HTMLFormElement; problem: HTMLElement; button: HTMLButtonElement | null } | undefined {
  const form = document.getElementById(id);
  const problem = document.getElementById(id.replace(/-form$/, '-problem'));
  if (!(form instanceof HTMLFormElement) || !problem) return undefined;
  return { form, problem, button: form.querySelector('button[type="submit"]') };
}

function onSubmit(id: string, submit: (fields: FormData, show: (message: string) => void) => Promise<void>): void {
  const found = formNamed(id);
  if (!found) return;
  const { form, problem, button } = found;
  const show = (message: string) => {
    problem.textContent = message;
    problem.hidden = false;
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    problem.hidden = true;
    if (button) button.disabled = true;
    submit(new FormData(form), show)
      .catch((error: unknown) => show(messageOf(error, 'That did not work. Please try again.')))
      .finally(() => {
        if (button) button.disabled = false;
      });
  });
}

const text = (fields: FormData, name: string): string => String(fields.get(name) ?? '');

async function signIn(email: string, password: string): Promise<Response> {
  const { response } = await api.POST('/api/auth/login', { body: { email, password } });
  return response;
}

onSubmit('password-form', async (fields, show) => {
  const { status, headers } = await signIn(text(fields, 'email'), text(fields, 'password'));
  if (status === 200) {
    window.location.assign(landingUrl(document.getElementById('password-form')?.dataset['returnTo']));
    return;
  }
  if (status === 401) show('Wrong e-mail or password.');
  else if (status === 429) show(`Too many failed attempts: try again ${retryText(headers.get('Retry-After'))}.`);
  else show('Signing in did not work. Please check the e-mail address and password.');
});

onSubmit('sign-up-form', async (fields, show) => {
  const email = text(fields, 'email');
  const password = text(fields, 'password');
  const { error, response } = await api.POST('/api/v1/users', { body: { name: text(fields, 'name'), email, password } });
  if (!response.ok) {
    if (response.status === 409) show('An account with this e-mail address already exists: sign in instead.');
    else show(error && typeof error === 'object' && 'error' in error ? error.error.message : 'The account could not be created. Please try again.');
    return;
  }
  const { status } = await signIn(email, password);
  const returnTo = document.getElementById('sign-up-form')?.dataset['returnTo'];
  window.location.assign(status === 200 ? landingUrl(returnTo) : new URL('/login', window.location.origin).href);
});
