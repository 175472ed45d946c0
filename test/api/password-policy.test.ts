import { ConfigError, loadConfig } from '../../src/config/config';
import { passwordProblem } from '../../src/domain/password-policy';
import { describeEachDatabase } from '../support/harness';

/** NIST SP 800-63B 5.1.1.2: commonly used, breached and context-specific passwords are refused. */
describeEachDatabase('common passwords', (get) => {
  const signUp = (email: string, password: string, name = 'Pat Example') =>
    get().anonymous.post('/api/v1/users').set('X-Request-ID', 'weak-password').send({ name, email, password });
  const freshEmail = () => `weak-${Math.random().toString(36).slice(2)}@example.com`;

  it.each(['password', 'PassWord', '12345678', 'qwertyui', 'iloveyou', 'P@ssw0rd', 'password1'])(
    'when sign-up uses %s, then 400 VALIDATION_ERROR on the password field says it is common, and no user is stored',
    async (password) => {
      const email = freshEmail();
      const res = await signUp(email, password);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: {
          code: 'VALIDATION_ERROR',
          message: 'password is one of the most commonly used passwords; choose another',
          details: [{ field: 'password', message: 'is one of the most commonly used passwords; choose another' }],
          requestId: 'weak-password',
        },
      });
      expect(await get().database.db('users').where({ email }).first()).toBeUndefined();
    },
  );

  it.each([
    ['the e-mail itself', (email: string) => email],
    ['the e-mail without its domain', (email: string) => email.split('@')[0] as string],
    ['the name', () => 'Marguerite Yourcenar'],
    ["this service's name", () => 'agentfleet2026'],
  ])('when sign-up uses %s as the password, then 400 says so without repeating it', async (_label, passwordOf) => {
    const email = `${'marguerite.y'}-${Math.random().toString(36).slice(2, 6)}@example.com`;
    const password = passwordOf(email);
    const res = await signUp(email, password, 'Marguerite Yourcenar');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toEqual([{ field: 'password', message: expect.stringContaining('your e-mail address, your name') }]);
    expect(res.text.toLowerCase()).not.toContain(password.toLowerCase());
  });

  it('when a password is short on guesses though not on a list, then 400 explains why', async () => {
    const res = await signUp(freshEmail(), 'abcdefghijk');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^password is too easy to guess: .*; a few unrelated words make a strong password$/);
    expect(res.text).not.toContain('abcdefghijk');
  });

  it('when sign-up uses a passphrase, then it is accepted and signs in', async () => {
    const email = freshEmail();
    await signUp(email, 'violet quarry lantern 42').expect(201);
    await get().anonymous.post('/api/auth/login').send({ email, password: 'violet quarry lantern 42' }).expect(200);
  });

  it('when a user changes their password to a common one (PATCH or PUT), then 400 and the old password still works', async () => {
    const me = await get().signUp();
    for (const [method, body] of [
      ['patch', { password: 'iloveyou' }],
      ['put', { name: 'Renamed', email: me.user.email, password: '12345678' }],
      ['patch', { password: me.user.email }],
    ] as const) {
      const res = await me.http[method](`/api/v1/users/${me.user.id}`).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ field: 'password', message: expect.any(String) }]);
    }
    await get().anonymous.post('/api/auth/login').send({ email: me.user.email, password: me.password }).expect(200);
    expect((await me.http.get(`/api/v1/users/${me.user.id}`).expect(200)).body.data.name).toBe(me.user.name);
    await me.http.patch(`/api/v1/users/${me.user.id}`).send({ password: 'orchid tractor velvet 7', current_password: me.password }).expect(200);
    await get().anonymous.post('/api/auth/login').send({ email: me.user.email, password: 'orchid tractor velvet 7' }).expect(200);
  });
});

describe('the password check', () => {
  // Not a speed target (a loaded CI machine runs it several times slower): a guard against the
  // catastrophic backtracking a crafted input could cause, which would take seconds to minutes.
  it('when a crafted 1,024-character password is checked, then it stays far below a second', () => {
    passwordProblem('warm the dictionaries up');
    for (const crafted of ['ab1!'.repeat(256), '1!|7043@$5'.repeat(102), '0123456789'.repeat(102)]) {
      const start = performance.now();
      passwordProblem(crafted);
      expect(performance.now() - start).toBeLessThan(1000);
    }
  });

  it('when ADMIN_PASSWORD is common or built from ADMIN_EMAIL, then the start is refused (in every environment) without echoing it', () => {
    for (const env of ['production', 'development']) {
      for (const password of ['password1', 'root@example.com']) {
        let problems: string[] = [];
        try {
          loadConfig({ NODE_ENV: env, JWT_SECRET: 'x'.repeat(48), ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: password });
        } catch (error) {
          if (error instanceof ConfigError) problems = error.problems;
        }
        expect(problems).toEqual([expect.stringMatching(/^ADMIN_PASSWORD (is one of the most commonly used passwords|is too easy to guess)/)]);
        expect(problems.join()).not.toContain(password);
      }
    }
    expect(loadConfig({ ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: 'first-admin-password' }).auth.admin).toEqual({
      email: 'root@example.com',
      password: 'first-admin-password',
    });
  });
});
